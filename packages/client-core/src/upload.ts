import { JweUploadError } from './errors.js';

/**
 * A streamed upload that knows how far it got: passes the sealed stream through chunk by chunk
 * (backpressure intact), counts what was taken, and can be stopped once the server has answered.
 */
export class TrackedUpload {
  readonly body: ReadableStream<Uint8Array>;
  #sent = 0;
  #finished = false;
  #stop: (() => void) | undefined;

  constructor(source: ReadableStream<Uint8Array>) {
    const reader = source.getReader();
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#stop = () => {
            reader.cancel().catch(() => undefined);
            controller.error(
              new Error('The server answered before the upload ended; the rest was not sent.'),
            );
          };
        },
        pull: async (controller) => {
          const { done, value } = await reader.read();
          if (done) {
            this.#finished = true;
            controller.close();
            return;
          }
          this.#sent += value.length;
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  }

  /** Bytes of the envelope handed to the HTTP client so far. */
  get sent(): number {
    return this.#sent;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Stops sending: the server has answered already, so the rest would be read by no one. */
  stop(): void {
    if (!this.#finished) this.#stop?.();
    this.#finished = true;
  }
}

const CONNECTION_CODES = new Set(['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET', 'ECONNABORTED']);

/** The socket-level code behind a fetch failure ("fetch failed", cause EPIPE), if there is one. */
export function connectionErrorCode(error: unknown): string | undefined {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
  }
  return undefined;
}

/** The error for an upload whose connection closed before any answer arrived (an answer that did arrive is reported as such). */
export function interrupted(
  upload: TrackedUpload,
  code: string,
  target: string,
  cause: unknown,
): JweUploadError {
  return new JweUploadError(
    `The connection for ${target} closed (${code}) after ${upload.sent} bytes of the sealed upload, and no ` +
      'answer had arrived: the server or a proxy on the way dropped the connection without answering (a ' +
      'crash, a timeout, a limit enforced by closing). Check its logs; the upload was not stored.',
    upload.sent,
    { cause },
  );
}
