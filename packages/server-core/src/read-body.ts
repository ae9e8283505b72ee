import { encodingUnsupported, isJweHttpError, requestAborted, tooLarge } from './errors.js';

/** Header access that fits both Web `Headers` and Node's `IncomingHttpHeaders`. */
export type HeaderValue = string | readonly string[] | null | undefined;

/**
 * What can be refused before reading a byte: a compressed body and a declared length over the
 * limit. Callers close the connection after such an answer, so a huge upload is not drained.
 */
export function refuseEarly(contentEncoding: HeaderValue, contentLength: HeaderValue, limit: number): void {
  const encoding = (typeof contentEncoding === 'string' ? contentEncoding : 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') throw encodingUnsupported(encoding);
  if (typeof contentLength === 'string') {
    const length = Number(contentLength);
    if (Number.isSafeInteger(length) && length > limit) throw tooLarge(limit, length);
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * A Web stream's chunks as an async iterable. A reader that stops early leaves the rest unread
 * rather than cancelling: on Node's bridges a cancel destroys the socket before the error answer
 * is written. The answer closes the connection instead.
 */
export async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const readToEnd = new WeakSet<Request>();

/** Whether `readRequestBody` read this request's body to its end (an error answer may then keep the connection). */
export function bodyReadToEnd(request: Request): boolean {
  return readToEnd.has(request);
}

/** Reads a Web `Request` body into memory, failing with 413 as soon as it passes `limit`. */
export async function readRequestBody(request: Request, limit: number): Promise<Uint8Array> {
  refuseEarly(request.headers.get('content-encoding'), request.headers.get('content-length'), limit);
  if (!request.body) return new Uint8Array(0);
  const bytes = await readAll(streamChunks(request.body), limit);
  readToEnd.add(request);
  return bytes;
}

/**
 * Reads a Node stream (or any async iterable of bytes) into memory, failing with 413 as soon as
 * it passes `limit`. A refused stream is left unread, not destroyed, so the error can still be
 * answered; the caller closes the connection after it.
 */
export async function readAll(source: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: IteratorResult<Uint8Array>;
    try {
      step = await iterator.next();
    } catch (error) {
      // A source may fail with an answer of its own (an idle timeout); anything else is the client leaving.
      throw isJweHttpError(error) ? error : requestAborted();
    }
    if (step.done) return concat(chunks, total);
    total += step.value.length;
    if (total > limit) throw tooLarge(limit, total);
    chunks.push(step.value);
  }
}
