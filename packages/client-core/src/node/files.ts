import { openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';

/**
 * A file on disk as a `Blob` that reads from disk as it is streamed: seal it (alone, or as the
 * `file` of a `FormData`) and the upload streams in bounded memory with backpressure.
 */
export function fileFromPath(path: string, options: { type?: string } = {}): Promise<Blob> {
  return openAsBlob(path, options.type === undefined ? {} : { type: options.type });
}

/**
 * A sealed stream body as a Node `Readable`, for clients that write to node:http themselves
 * (axios's http adapter, undici's `request`). Backpressure carries through: the envelope is
 * produced only as fast as the socket takes it.
 */
export function toNodeReadable(body: ReadableStream<Uint8Array>): Readable {
  return Readable.fromWeb(body as NodeWebStream<Uint8Array>);
}
