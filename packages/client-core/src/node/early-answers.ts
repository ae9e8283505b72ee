import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/*
 * A server may answer an upload before reading it (401, 413) and close the connection, as Bun
 * does. Its answer reaches the client's kernel before the reset that makes the next write fail;
 * but a Node socket whose write fails closes itself at once, and the answer it never read is
 * lost with it: the HTTP client reports `write EPIPE`. The sockets that carry sealed uploads are
 * told to report such a failed write only after their read side has ended, so that the HTTP
 * client parses the answer first (undici and node:http then close the socket themselves, and the
 * failed write is of no further interest).
 */

/** Write failures that mean the peer has closed the connection (after answering, perhaps). */
const PEER_CLOSED = new Set(['EPIPE', 'ECONNRESET']);
const KEEPS = Symbol('jwe-transport.keepsEarlyAnswers');

type WriteCallback = (error?: Error | null) => void;
type PatchableSocket = Socket & {
  [KEEPS]?: true;
  _writev?: (chunks: unknown[], callback: WriteCallback) => void;
};

/**
 * Makes `socket` report a write that failed because its peer closed only once its read side has
 * ended, so that whoever reads it sees what the peer sent before closing. For clients that open
 * their own sockets (axios's http adapter through its `transport`); undici's are handled by
 * {@link watchSealedUploads}.
 */
export function keepEarlyAnswers(socket: Socket): void {
  const target = socket as PatchableSocket;
  if (target[KEEPS]) return;
  target[KEEPS] = true;
  const afterWrite =
    (callback: WriteCallback): WriteCallback =>
    (error) => {
      const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
      if (!error || !code || !PEER_CLOSED.has(code) || socket.readableEnded || socket.destroyed) {
        callback(error);
        return;
      }
      const report = () => {
        socket.off('end', report).off('close', report);
        callback(error);
      };
      socket.once('end', report).once('close', report);
    };
  const write = target._write;
  target._write = (chunk, encoding, callback) => write.call(target, chunk, encoding, afterWrite(callback));
  const writev = target._writev;
  if (writev) target._writev = (chunks, callback) => writev.call(target, chunks, afterWrite(callback));
}

const SEALED_HEADER = /(?:^|\r\n)x-encryption:[ \t]*jwe[ \t]*\r\n/i;

/** undici (fetch, `undici.request`, ky): the socket a request's headers go out on. */
function onUndiciHeaders(message: unknown): void {
  const { headers, socket } = message as { headers?: unknown; socket?: Socket };
  if (socket && typeof headers === 'string' && SEALED_HEADER.test(headers)) keepEarlyAnswers(socket);
}

let watching = 0;

/**
 * While a sealed stream is being sent, the undici sockets (fetch, `undici.request`, any
 * dispatcher) that sealed requests go out on keep early answers. undici's channel is listened to
 * only then: a subscriber makes undici describe every request. Returns the function that ends
 * this watch.
 */
export function watchSealedUploads(): () => void {
  if (watching++ === 0) {
    subscribe('undici:client:sendHeaders', onUndiciHeaders);
  }
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--watching === 0) {
      unsubscribe('undici:client:sendHeaders', onUndiciHeaders);
    }
  };
}
