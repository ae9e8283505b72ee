import { randomUUID } from 'node:crypto';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
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

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Writes to a hidden temporary file beside the destination (same folder, so the final rename is
 * atomic) and renames it over the destination only on commit.
 */
async function fileSink(path: string): Promise<Sink> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.partial`);
  const handle = await open(temporary, 'wx');
  let open_ = true;
  const close = async () => {
    if (open_) {
      open_ = false;
      await handle.close();
    }
  };
  return {
    write: (chunk) => writeAll(handle, chunk),
    async commit() {
      await close();
      await rename(temporary, path);
    },
    async abort() {
      await close().catch(() => {});
      await unlink(temporary).catch(() => {});
    },
  };
}

function writableSink(stream: WritableStream<Uint8Array>): Sink {
  const writer = stream.getWriter();
  return {
    write: (chunk) => writer.write(chunk),
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
