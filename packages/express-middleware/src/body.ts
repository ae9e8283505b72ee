import type { IncomingMessage } from 'node:http';
import { readAll, refuseEarly } from '@jwe-transport/server-core/adapter';
import { watchIdle } from './idle-timeout.js';

/** Whether a request carries a body at all (the test body-parser uses: a length or chunked framing). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/**
 * The body through the server core's one reader (`readAll`), with Express's idle timeout: a
 * client that sends nothing for `idleMs` is answered 408.
 */
export async function readBody(req: IncomingMessage, limit: number, idleMs: number): Promise<Uint8Array> {
  refuseEarly(req.headers['content-encoding'], req.headers['content-length'], limit);
  let stop = () => {};
  const idle = new Promise<never>((_resolve, reject) => {
    stop = watchIdle(req, idleMs, reject);
  });
  idle.catch(() => {});
  try {
    return await Promise.race([readAll(req, limit), idle]);
  } finally {
    stop();
  }
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
