import type { FileHandle } from 'node:fs/promises';

/** Bytes gathered before one `writev`: few system calls, and buffers still die young in V8. */
const BATCH_BYTES = 256 * 1024;

/**
 * Appends chunks to a file in batches with `writev` (no copying), one batch in flight while the
 * caller prepares the next. Chunks must not be changed after they are handed over.
 */
export class BatchedFileWriter {
  private batch: Uint8Array[] = [];
  private batchBytes = 0;
  private position = 0;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly handle: FileHandle) {}

  /** Bytes handed over so far. */
  get length(): number {
    return this.position + this.batchBytes;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    if (this.batchBytes >= BATCH_BYTES) await this.startBatch();
  }

  /** Resolves once everything handed over is in the file. */
  async flush(): Promise<void> {
    await this.startBatch();
    await this.inFlight;
  }

  /** Drops what is not written yet and waits for the write in flight, ignoring its outcome. */
  async discard(): Promise<void> {
    this.batch = [];
    this.batchBytes = 0;
    await this.inFlight.catch(() => {});
  }

  /** Waits for the batch in flight, then starts the gathered one. */
  private async startBatch(): Promise<void> {
    await this.inFlight;
    if (this.batchBytes === 0) return;
    const chunks = this.batch;
    const position = this.position;
    this.position += this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    this.inFlight = this.writeAt(chunks, position);
    // Reported by the next `write`/`flush` that awaits it, never as an unhandled rejection.
    this.inFlight.catch(() => {});
  }

  private async writeAt(chunks: Uint8Array[], position: number): Promise<void> {
    const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    let done = (await this.handle.writev(chunks, position)).bytesWritten;
    if (done === total) return;
    // Rare on regular files: write what remains, one chunk at a time.
    let offset = 0;
    for (const chunk of chunks) {
      const end = offset + chunk.length;
      while (done < end) {
        const start = done - offset;
        done += (await this.handle.write(chunk, start, chunk.length - start, position + done)).bytesWritten;
      }
      offset = end;
    }
  }
}
