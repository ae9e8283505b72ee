import { randomUUID } from 'node:crypto';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchedFileWriter } from './batched-file-writer.js';
import { piecesOf } from './pieces.js';

/**
 * Bytes per read when the spill is read back: each read is a trip to libuv's thread pool, so
 * fewer, larger reads decrypt faster. The one buffer is reused, so its size adds no garbage.
 */
const READ_BYTES = 512 * 1024;

/**
 * A temporary file for ciphertext that arrives before the members needed to decrypt it (`iv`,
 * `protected`, a resolver's `kid`). It holds only ciphertext, which is safe at rest, and keeps
 * memory bounded where holding it in memory would not be. Always `dispose` it.
 */
export class SpillFile {
  private readonly writer: BatchedFileWriter;

  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {
    this.writer = new BatchedFileWriter(handle);
  }

  static async create(dir: string = tmpdir()): Promise<SpillFile> {
    const path = join(dir, `.jwe-ciphertext-${randomUUID()}.spill`);
    return new SpillFile(path, await open(path, 'wx+', 0o600));
  }

  /** Appends ciphertext; the chunk must not be changed afterwards. */
  write(chunk: Uint8Array): Promise<void> {
    return this.writer.write(chunk);
  }

  /** Reads the content back in order, in pieces; each yielded buffer is valid only until the next one. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    await this.writer.flush();
    const buffer = new Uint8Array(READ_BYTES);
    for (let position = 0; position < this.writer.length; ) {
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error('The spill file ended early.');
      position += bytesRead;
      yield* piecesOf(buffer.subarray(0, bytesRead));
    }
  }

  async dispose(): Promise<void> {
    await this.writer.discard();
    await this.handle.close().catch(() => {});
    await unlink(this.path).catch(() => {});
  }
}
