import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BatchedFileWriter } from './batched-file-writer.js';
import type { ByteSink } from './types.js';

/**
 * Where unauthenticated plaintext waits until the tag verifies: `commit` publishes it, `abort`
 * makes it disappear (a file sink is removed, a WritableStream is aborted).
 */
export interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(reason: unknown): Promise<void>;
}

/**
 * Writes to a hidden temporary file beside the destination (same folder, so the final rename is
 * atomic) and renames it over the destination only on commit.
 */
async function fileSink(path: string): Promise<Sink> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.partial`);
  // Decrypted plaintext is readable by its owner only, whatever the umask (as the spill file).
  const handle = await open(temporary, 'wx', 0o600);
  const writer = new BatchedFileWriter(handle);
  let closed = false;
  const close = async () => {
    if (!closed) {
      closed = true;
      await handle.close();
    }
  };
  return {
    write: (chunk) => writer.write(chunk),
    async commit() {
      await writer.flush();
      await close();
      await rename(temporary, path);
    },
    async abort() {
      await writer.discard();
      await close().catch(() => {});
      await unlink(temporary).catch(() => {});
    },
  };
}

/** Writes without waiting for each chunk to be consumed, only for the stream's backpressure. */
function writableSink(stream: WritableStream<Uint8Array>): Sink {
  const writer = stream.getWriter();
  return {
    async write(chunk) {
      await writer.ready;
      writer.write(chunk).catch(() => {});
    },
    async commit() {
      await writer.close();
      writer.releaseLock();
    },
    async abort(reason) {
      await writer.abort(reason).catch(() => {});
      writer.releaseLock();
    },
  };
}

export function openSink(to: ByteSink): Promise<Sink> {
  if (typeof to === 'string') return fileSink(to);
  if (to && typeof (to as WritableStream).getWriter === 'function') return Promise.resolve(writableSink(to));
  throw new TypeError('The "to" option must be a file path or a WritableStream.');
}
