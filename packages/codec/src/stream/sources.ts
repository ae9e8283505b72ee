import type { ByteSource } from './types.js';

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof (value as { getReader?: unknown } | null)?.getReader === 'function';
}

function checkChunk(chunk: unknown, what: string): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  throw new TypeError(
    `${what} must yield Uint8Array chunks, got ${typeof chunk}. Do not set an encoding on Node streams.`,
  );
}

/** Iterates any accepted source as Uint8Array chunks, releasing it when the consumer stops early. */
export async function* chunksOf(source: ByteSource, what: string): AsyncGenerator<Uint8Array> {
  if (isReadableStream(source)) {
    // Not every ReadableStream implementation is async-iterable, so read it by hand.
    const reader = source.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return;
        }
        yield checkChunk(value, what);
      }
    } finally {
      if (!finished) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
  if (
    typeof source === 'object' &&
    source !== null &&
    (Symbol.asyncIterator in source || Symbol.iterator in source)
  ) {
    for await (const chunk of source as AsyncIterable<unknown>) yield checkChunk(chunk, what);
    return;
  }
  throw new TypeError(`${what} must be a ReadableStream or an (async) iterable of Uint8Array.`);
}
