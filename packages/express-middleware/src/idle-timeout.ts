import type { IncomingMessage } from 'node:http';
import { requestTimeout } from '@jwe-transport/server-core/adapter';

/** Long enough for a client on a poor link, short enough to free the socket of one that left. */
export const DEFAULT_IDLE_TIMEOUT = 30_000;

/**
 * Calls `onIdle` when the client sends nothing for `ms` while its body is read, and returns the
 * function that stops watching. It uses the socket's own idle timer (reset by every byte) rather
 * than a timer of ours, so a slow but steady upload is never cut short; Node's HTTP server
 * reports the idle socket as a `timeout` event on the unfinished request.
 *
 * The timer is armed one tick later, and only if the body is still incomplete then: most JSON
 * bodies arrive with their headers, and arming and disarming a socket timer for each of them
 * would cost more than parsing them.
 */
export function watchIdle(req: IncomingMessage, ms: number, onIdle: (error: Error) => void): () => void {
  const socket = req.socket;
  if (ms === 0 || !socket) return () => {};
  let state: 'pending' | 'armed' | 'stopped' = 'pending';
  let previous = 0;
  const onTimeout = () => onIdle(requestTimeout(ms));
  process.nextTick(() => {
    if (state !== 'pending' || req.complete) return;
    state = 'armed';
    previous = socket.timeout ?? 0;
    req.on('timeout', onTimeout);
    socket.setTimeout(ms);
  });
  return () => {
    if (state === 'armed') {
      req.off('timeout', onTimeout);
      socket.setTimeout(previous);
    }
    state = 'stopped';
  };
}
