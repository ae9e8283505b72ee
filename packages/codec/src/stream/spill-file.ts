import { randomUUID } from 'node:crypto';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PIECE_BYTES } from './pieces.js';

/**
 * A temporary file for ciphertext that arrives before the members needed to decrypt it (`iv`,
 * `protected`, a resolver's `kid`). It holds only ciphertext, which is safe at rest, and keeps
 * memory bounded where holding it in memory would not be. Always `dispose` it.
 */
export class SpillFile {
  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(dir: string = tmpdir()): Promise<SpillFile> {
    const path = join(dir, `.jwe-ciphertext-${randomUUID()}.spill`);
    return new SpillFile(path, await open(path, 'wx+', 0o600));
  }

  private written = 0;

  async write(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await this.handle.write(chunk, offset, chunk.length - offset, this.written);
      offset += bytesWritten;
      this.written += bytesWritten;
    }
  }

  /** Reads the content back in order; each yielded buffer is valid only until the next one. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    const buffer = new Uint8Array(PIECE_BYTES);
    for (let position = 0; position < this.written; ) {
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error('The spill file ended early.');
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }

  async dispose(): Promise<void> {
    await this.handle.close().catch(() => {});
    await unlink(this.path).catch(() => {});
  }
}
