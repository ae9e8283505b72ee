import { BodyBytes, declaredLength } from './body-bytes.js';
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

/** A Node request or any stream with Node's `data`/`end` events (read without an async iterator). */
export interface EventedBody {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
}

/** Every kind of body an adapter holds: a Web stream, a Node request, any async iterable of bytes, or bytes read already. */
export type BodySource = ReadableStream<Uint8Array> | EventedBody | AsyncIterable<Uint8Array> | Uint8Array;

export interface ReadBodyOptions {
  /** Largest body in bytes: a 413 as soon as the declared or received length passes it. */
  limit: number;
  /** The request's `Content-Encoding` (anything but identity is a 415) and `Content-Length`. */
  contentEncoding?: HeaderValue;
  contentLength?: HeaderValue;
  /**
   * Watches the client while the body is read (Express's idle timeout): called with a function
   * that fails the read, it returns the function that stops watching.
   */
  watch?: (fail: (error: unknown) => void) => () => void;
}

const isEvented = (source: BodySource): source is EventedBody =>
  typeof (source as EventedBody).on === 'function' && typeof (source as EventedBody).pause === 'function';

/**
 * The one body reader of every adapter, as body-parser has one: refuses a compressed body or a
 * declared length over the limit before reading a byte, then reads the body into memory with a
 * 413 as soon as it passes `limit` and a 400 `request.aborted` when the client leaves. A refused
 * body is left unread (not destroyed), so its error can still be answered; the caller closes
 * the connection after it.
 */
export function readBody(source: BodySource | undefined, options: ReadBodyOptions): Promise<Uint8Array> {
  try {
    refuseEarly(options.contentEncoding, options.contentLength, options.limit);
  } catch (error) {
    return Promise.reject(error);
  }
  if (source === undefined) return Promise.resolve(new Uint8Array(0));
  if (source instanceof Uint8Array) {
    return source.length > options.limit
      ? Promise.reject(tooLarge(options.limit, source.length))
      : Promise.resolve(source);
  }
  // Node's own events: a stream's async iterator costs more than the crypto's share of a small JSON request.
  if (isEvented(source)) return readEvents(source, options);
  const chunks =
    typeof (source as ReadableStream<Uint8Array>).getReader === 'function'
      ? streamChunks(source as ReadableStream<Uint8Array>)
      : (source as AsyncIterable<Uint8Array>);
  return readAll(chunks, options.limit, declaredLength(options.contentLength));
}

function readEvents(source: EventedBody, options: ReadBodyOptions): Promise<Uint8Array> {
  if (source.readableEnded) return Promise.resolve(new Uint8Array(0));
  if (source.destroyed) return Promise.reject(requestAborted());
  const { limit } = options;
  return new Promise((resolve, reject) => {
    const body = new BodyBytes(declaredLength(options.contentLength));
    const onData = (chunk: Uint8Array) => {
      if (body.total + chunk.length > limit) fail(tooLarge(limit, body.total + chunk.length));
      else body.add(chunk);
    };
    const onEnd = () => {
      done();
      resolve(body.result());
    };
    const onError = (error: unknown) => fail(isJweHttpError(error) ? error : requestAborted());
    const onClose = () => {
      if (!source.readableEnded) fail(requestAborted());
    };
    const stop = options.watch?.((error) => fail(error));
    function done() {
      stop?.();
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    }
    function fail(error: unknown) {
      done();
      source.pause();
      reject(error);
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}

const readToEnd = new WeakSet<Request>();

/** Whether the Web handler read this request's body to its end (an error answer may then keep the connection). */
export function bodyReadToEnd(request: Request): boolean {
  return readToEnd.has(request);
}

/** Notes that a Web `Request`'s body was read to its end. */
export function markReadToEnd(request: Request): void {
  readToEnd.add(request);
}

/**
 * Reads any async iterable of bytes into memory, failing with 413 as soon as it passes `limit`.
 * A refused stream is left unread, not destroyed, so the error can still be answered.
 * `declared`: the body's announced length (within `limit`), which lets it be read with one copy.
 */
export async function readAll(
  source: AsyncIterable<Uint8Array>,
  limit: number,
  declared?: number,
): Promise<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const body = new BodyBytes(declared);
  for (;;) {
    let step: IteratorResult<Uint8Array>;
    try {
      step = await iterator.next();
    } catch (error) {
      // A source may fail with an answer of its own (an idle timeout); anything else is the client leaving.
      throw isJweHttpError(error) ? error : requestAborted();
    }
    if (step.done) return body.result();
    const total = body.total + step.value.length;
    if (total > limit) throw tooLarge(limit, total);
    body.add(step.value);
  }
}
