import type { IncomingMessage } from 'node:http';
import { isJweHttpError, refuseEarly, requestAborted, tooLarge } from '@jwe-transport/server-core/adapter';
import { watchIdle } from './idle-timeout.js';

/** Whether a request carries a body at all (the test body-parser uses: a length or chunked framing). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/**
 * The body, read with `data`/`end` listeners (a stream's async iterator costs more than the
 * crypto's share of a small JSON request), with the server core's 413 and abort errors and
 * Express's idle timeout: a client that sends nothing for `idleMs` is answered 408. A refused
 * body is left paused and unread; the answer closes the connection.
 */
export function readBody(req: IncomingMessage, limit: number, idleMs: number): Promise<Uint8Array> {
  try {
    refuseEarly(req.headers['content-encoding'], req.headers['content-length'], limit);
  } catch (error) {
    return Promise.reject(error);
  }
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  if (req.destroyed) return Promise.reject(requestAborted());
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const onData = (chunk: Uint8Array) => {
      total += chunk.length;
      if (total > limit) fail(tooLarge(limit, total));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onError = (error: unknown) => fail(isJweHttpError(error) ? error : requestAborted());
    const onClose = () => {
      if (!req.readableEnded) fail(requestAborted());
    };
    const stop = watchIdle(req, idleMs, (error) => fail(error));
    function done() {
      stop();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    }
    function fail(error: unknown) {
      done();
      req.pause();
      reject(error);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Idle-timed source for the upload path: a client that sends nothing for `idleMs` fails the
 * pending read with 408. One listener per read, removed with it (racing every chunk against one
 * long-lived promise would keep a reaction per chunk alive until the request ends).
 */
export function idleWatched(req: IncomingMessage, idleMs: number): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = (req as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
      let idleError: unknown;
      let pending: ((error: unknown) => void) | undefined;
      const stop = watchIdle(req, idleMs, (error) => {
        idleError = error;
        pending?.(error);
      });
      return {
        next() {
          if (idleError !== undefined) return Promise.reject(idleError);
          return new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
            pending = reject;
            iterator.next().then(
              (step) => {
                pending = undefined;
                if (step.done) stop();
                resolve(step);
              },
              (error: unknown) => {
                pending = undefined;
                stop();
                reject(error);
              },
            );
          });
        },
      };
    },
  };
}
