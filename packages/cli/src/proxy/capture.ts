import { createHash, type Hash } from 'node:crypto';

/** Bodies larger than this are counted and hashed but not kept for opening, the HAR or the view. */
export const CAPTURE_LIMIT = 16 * 1024 * 1024;

/**
 * A copy of a body as it passes, on the side: every byte is counted and hashed, and the first
 * `limit` bytes are kept. Adding never waits, so copying never slows the traffic down.
 */
export class BodyCapture {
  size = 0;
  #chunks: Uint8Array[] = [];
  #kept = 0;
  #overflow = false;
  readonly #hash: Hash = createHash('sha256');
  #digest: string | undefined;
  readonly #limit: number;

  constructor(limit = CAPTURE_LIMIT) {
    this.#limit = limit;
  }

  add(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    this.#hash.update(chunk);
    if (this.#overflow) return;
    if (this.#kept + chunk.byteLength > this.#limit) {
      this.#overflow = true;
      this.#chunks = [];
      return;
    }
    // A copy: the stream may reuse its buffer.
    this.#chunks.push(Uint8Array.prototype.slice.call(chunk));
    this.#kept += chunk.byteLength;
  }

  /** The whole body, or undefined when it was larger than the limit. */
  bytes(): Uint8Array | undefined {
    if (this.#overflow) return undefined;
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0] ?? new Uint8Array(0);
  }

  get complete(): boolean {
    return !this.#overflow;
  }

  /** SHA-256 of every byte seen, hex; call once the body has ended. */
  sha256(): string {
    this.#digest ??= this.#hash.digest('hex');
    return this.#digest;
  }
}

/** A Web stream that passes `source` through unchanged, copying each chunk into `capture`. */
export function capturing(
  source: ReadableStream<Uint8Array>,
  capture: BodyCapture,
): ReadableStream<Uint8Array> {
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        capture.add(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
}
