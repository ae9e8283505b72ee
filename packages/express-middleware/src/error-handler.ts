import { isJweHttpError, statusOf } from '@jwe-transport/server-core';
import type { ErrorRequestHandler, Request } from 'express';

interface HttpErrorLike {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
  message?: unknown;
}

/** Told about every error answered with a 5xx status: the server's faults, which someone must see. */
export type ServerErrorListener = (error: unknown, req: Request, status: number) => void;

export interface JweErrorHandlerOptions {
  /**
   * Called for each 5xx answer, before it is written. Default: one line on stderr with the
   * method, path and the error's stack, as Express's own handler logs. Pass your logger here; the
   * error never holds keys or decrypted bodies from this package, and the request body is not passed.
   */
  onError?: ServerErrorListener;
}

/** Express's handler prints the stack to stderr; so do we, with the route that failed. */
const logToStderr: ServerErrorListener = (error, req, status) => {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(`jweErrorHandler: ${status} for ${req.method} ${req.path}: ${detail}`);
};

function codeOf(error: HttpErrorLike, status: number, expose: boolean): string {
  // Our own codes are stable and carry nothing secret, even on a 5xx; others' only when exposed.
  if (typeof error.code === 'string' && (expose || isJweHttpError(error))) return error.code;
  return `ERR_HTTP_${status}`;
}

/**
 * Answers errors as JSON: `{"error": {"type", "code", "message"}}`. The message is shown only for
 * errors marked `expose` (client errors); everything else reads "Internal Server Error", and is
 * reported to `onError`. For a request that arrived encrypted the answer is encrypted too,
 * because it goes through `res.json`.
 */
export function jweErrorHandler(options: JweErrorHandlerOptions = {}): ErrorRequestHandler {
  const onError = options.onError ?? logToStderr;
  if (typeof onError !== 'function') throw new TypeError('jweErrorHandler: "onError" must be a function.');
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const error = (err !== null && typeof err === 'object' ? err : {}) as HttpErrorLike;
    const status = statusOf(error);
    const expose = error.expose === true && status < 500;
    if (status >= 500) {
      try {
        onError(err, req, status);
      } catch {
        // A failing logger must not cost the client its answer.
      }
    }
    const type =
      typeof error.type === 'string' && (expose || isJweHttpError(error))
        ? error.type
        : status >= 500
          ? 'server.error'
          : 'request.invalid';
    const message =
      expose && typeof error.message === 'string'
        ? error.message
        : status >= 500
          ? 'Internal Server Error'
          : 'Bad Request';
    res.status(status).json({ error: { type, code: codeOf(error, status, expose), message } });
  };
}
