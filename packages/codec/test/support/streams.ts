import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';

/** Deterministic pseudo-random bytes (SHA-256 in counter mode), so big inputs cost no shrinking. */
export function bytesFrom(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let at = 0, i = 0; at < length; at += 32, i++) {
    createHash('sha256').update(`${seed}:${i}`).digest().copy(out, at);
  }
  return out;
}

export async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return Buffer.concat(parts);
}

/** A WritableStream that keeps what it receives and records whether it was closed or aborted. */
export function memorySink() {
  const parts: Uint8Array[] = [];
  const state = { closed: false, aborted: false };
  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      parts.push(chunk);
    },
    close() {
      state.closed = true;
    },
    abort() {
      state.aborted = true;
    },
  });
  return { stream, state, bytes: () => Buffer.concat(parts) };
}
