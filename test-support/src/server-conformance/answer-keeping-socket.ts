import type { ClientRequestArgs } from 'node:http';
import { Socket } from 'node:net';

/** Write failures that mean the peer has closed the connection (it may have answered first). */
const PEER_CLOSED = new Set(['EPIPE', 'ECONNRESET']);

type WriteCallback = (error?: Error | null) => void;

/**
 * A client socket that reads the server's answer even when the server hangs up in the middle of
 * the upload, as HTTP allows (RFC 9112 9.6) and as Bun does after an early 413.
 *
 * The answer arrives before the reset that makes the next write fail with EPIPE, and the kernel
 * keeps it for reading; but Node's socket closes itself on the failed write, before its read side
 * has seen those bytes. Here a write that fails because the peer is gone is reported only once the
 * read side has ended, so the HTTP client parses the answer first and then learns that the rest
 * of the upload could not be sent.
 */
export class AnswerKeepingSocket extends Socket {
  override _write(chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void {
    super._write(chunk, encoding, this.#afterWrite(callback));
  }

  override _writev(chunks: { chunk: unknown; encoding: BufferEncoding }[], callback: WriteCallback): void {
    super._writev?.(chunks, this.#afterWrite(callback));
  }

  #afterWrite(callback: WriteCallback): WriteCallback {
    return (error) => {
      const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
      if (!error || !code || !PEER_CLOSED.has(code) || this.readableEnded || this.destroyed) {
        callback(error);
        return;
      }
      const report = () => {
        this.off('end', report).off('close', report);
        callback(error);
      };
      this.once('end', report).once('close', report);
    };
  }
}

/** `createConnection` for node:http: a plain TCP connection through an `AnswerKeepingSocket`. */
export function answerKeepingConnection(options: ClientRequestArgs): AnswerKeepingSocket {
  return new AnswerKeepingSocket().connect(Number(options.port), options.host ?? '127.0.0.1');
}
