import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CliError } from '../cli-error.js';

/**
 * Inputs up to this size are read whole and handled with the one-shot codec; larger ones stream
 * (envelopes and file uploads) so memory stays bounded whatever their size.
 */
export const STREAM_THRESHOLD = 8 * 2 ** 20;

/**
 * Read size for envelope files. Streaming decryption pays for each read (a trip to libuv's thread
 * pool) more than for its size, so fewer, larger reads decrypt faster than Node's default 64 KiB.
 * Larger still is no faster and costs memory: buffers that live long enough are promoted out of
 * V8's young generation and wait for a full GC. Files to encrypt keep the default read size,
 * which serves encryption better.
 */
export const ENVELOPE_READ_BYTES = 512 * 1024;

export interface OpenInputOptions {
  /** Bytes read before deciding between the one-shot codec and streaming; default STREAM_THRESHOLD. */
  threshold?: number;
  /** Size of each read from a file (not standard input); default Node's 64 KiB. */
  readBytes?: number;
}

/**
 * An input read up to the threshold: `head` holds the bytes read so far; when `complete` is false
 * the rest is still in `rest`, to be streamed or read on.
 */
export interface OpenedInput {
  name: string;
  head: Buffer;
  complete: boolean;
  rest: AsyncIterator<Uint8Array> | undefined;
  close(): void;
}

function openSource(
  path: string | undefined,
  stdin: Readable,
  readBytes: number | undefined,
): { name: string; stream: Readable } {
  if (path === undefined || path === '-') return { name: 'standard input', stream: stdin };
  return { name: path, stream: createReadStream(path, { highWaterMark: readBytes }) };
}

export async function assertReadableFile(path: string | undefined): Promise<void> {
  if (path === undefined || path === '-') return;
  try {
    const info = await stat(path);
    if (info.isDirectory())
      throw new CliError('ERR_INPUT', `${JSON.stringify(path)} is a directory, not a file.`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError(
      'ERR_INPUT',
      `Cannot read ${JSON.stringify(path)} (${code}). Check the path, or pass - for standard input.`,
    );
  }
}

/** Reads the input's first `threshold` bytes, leaving the rest unread. */
export async function openInput(
  path: string | undefined,
  stdin: Readable,
  { threshold = STREAM_THRESHOLD, readBytes }: OpenInputOptions = {},
): Promise<OpenedInput> {
  await assertReadableFile(path);
  if (path === undefined && (stdin as { isTTY?: boolean }).isTTY === true) {
    // Waiting silently on a terminal looks like a hang; pasting is still possible with an explicit "-".
    throw new CliError(
      'ERR_USAGE',
      'No input: give a FILE, pipe the envelope in, or pass - to paste it here (end with Ctrl-D).',
    );
  }
  const { name, stream } = openSource(path, stdin, readBytes);
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const chunks: Buffer[] = [];
  let size = 0;
  const close = () => {
    if (stream !== stdin) stream.destroy();
  };
  try {
    while (size <= threshold) {
      const next = await iterator.next();
      if (next.done)
        return { name, head: Buffer.concat(chunks, size), complete: true, rest: undefined, close };
      const chunk = Buffer.from(next.value);
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    close();
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError('ERR_INPUT', `Cannot read ${name} (${code}).`);
  }
  return { name, head: Buffer.concat(chunks, size), complete: false, rest: iterator, close };
}

const SLICE = 2 ** 20;

/** The whole input as an async iterable: the bytes already read (in 1 MiB slices, so consumers' buffers stay small), then the rest. */
export async function* remainingBytes(input: OpenedInput): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < input.head.length; at += SLICE) yield input.head.subarray(at, at + SLICE);
  if (!input.rest) return;
  for (let next = await input.rest.next(); !next.done; next = await input.rest.next()) yield next.value;
}

/** Reads the rest of an input into memory, up to `limit` bytes, for inputs that cannot stream (HAR files). */
export async function readAll(input: OpenedInput, limit: number): Promise<Buffer> {
  if (input.complete) return input.head;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of remainingBytes(input)) {
    size += chunk.length;
    if (size > limit) {
      input.close();
      throw new CliError(
        'ERR_JWE_TOO_LARGE',
        `${input.name} is larger than ${Math.round(limit / 2 ** 20)} MiB, too large to read whole. ` +
          'Only flattened JSON envelopes stream; extract the envelope from it first.',
      );
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, size);
}
