import type { IncomingMessage } from 'node:http';
import { watchIdle } from './idle-timeout.js';

/** Express's idle timeout, as the server core's body reader takes a watcher. */
export function idleWatch(req: IncomingMessage, idleMs: number) {
  return (fail: (error: unknown) => void) => watchIdle(req, idleMs, fail);
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
