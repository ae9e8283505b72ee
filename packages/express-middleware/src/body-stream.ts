import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { encodingUnsupported, requestAborted, tooLarge } from './errors.js';
import { DEFAULT_IDLE_TIMEOUT, watchIdle } from './idle-timeout.js';

/** Whether a request carries a body at all (the test body-parser uses: a length or chunked framing). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * Checks what can be refused before reading a byte: a declared length over the limit and a
 * compressed body. The connection is then closed after the answer, so the unread rest of a huge
 * upload is not drained from the client.
 */
function refuseEarly(req: IncomingMessage, limit: number): Error | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') return encodingUnsupported(encoding);
  const length = declaredLength(req);
  if (length !== undefined && length > limit) return tooLarge(limit, length);
  return undefined;
}

const ignore = () => {};

class ByteLimit extends Transform {
  private received = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) callback(tooLarge(this.limit, this.received));
    else callback(null, chunk);
  }
}

/**
 * The request body as a stream that fails with `entity.too.large` as soon as it passes `limit`
 * bytes and with `request.aborted` if the client goes away. Throws at once when the declared
 * length is already too large or the body is compressed. The request itself is never
 * destroyed here, so the error can still be answered; callers mark the response
 * `Connection: close` (see `closeAfterBodyError`).
 */
export function limitedBody(req: IncomingMessage, limit: number, idleTimeout: number): Transform {
  const early = refuseEarly(req, limit);
  if (early) throw early;
  const body = new ByteLimit(limit);
  // Consumers attach their own listeners when they start reading; until then an abort must not crash.
  body.on('error', ignore);
  const onClose = () => {
    if (!req.complete) body.destroy(requestAborted());
  };
  const stopWatching = watchIdle(req, idleTimeout, (error) => body.destroy(error));
  req.once('close', onClose);
  req.once('end', stopWatching);
  body.once('close', () => {
    req.off('close', onClose);
    req.off('end', stopWatching);
    stopWatching();
  });
  req.pipe(body);
  return body;
}

/**
 * Reads a whole (small) body into memory, bounded by `limit`. Listens to the request directly
 * (no intermediate stream) because this is the path every JSON request takes.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  idleTimeout = DEFAULT_IDLE_TIMEOUT,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const early = refuseEarly(req, limit);
    if (early) {
      reject(early);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const stopWatching = watchIdle(req, idleTimeout, (error) => {
      stop();
      reject(error);
    });
    const stop = () => {
      stopWatching();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        stop();
        req.pause();
        reject(tooLarge(limit, received));
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onError = (error: Error) => {
      stop();
      // Node reports a client that went away as an "aborted" error on the request.
      reject(req.complete ? error : requestAborted());
    };
    const onClose = () => {
      stop();
      reject(requestAborted());
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}
