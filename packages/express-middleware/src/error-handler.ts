import type { RefusalReporting } from '@jwe-transport/server-core';
import { describeRefusal, errorBody, reportRefusal, statusOf } from '@jwe-transport/server-core/adapter';
import type { ErrorRequestHandler, Request } from 'express';
import { attachedReporting } from './refusals.js';

/** Told about every error answered with a 5xx status: the server's faults, which someone must see. */
export type ServerErrorListener = (error: unknown, req: Request, status: number) => void;

export interface JweErrorHandlerOptions extends RefusalReporting {
  /**
   * Called for each 5xx answer, before it is written. Default, when neither this nor `logger` is
   * set: one line on stderr with the method, path and the error's stack, as Express's own
   * handler logs. The error never holds keys or decrypted bodies from this package.
   */
  onError?: ServerErrorListener;
}

/** Express's handler prints the stack to stderr; so do we, with the route that failed. */
const logToStderr: ServerErrorListener = (error, req, status) => {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(`jweErrorHandler: ${status} for ${req.method} ${req.path}: ${detail}`);
};

/**
 * Answers errors as JSON with the server core's one error body: `{"error": {"type", "code",
 * "message"}}`, the message shown only for errors marked `expose` (client errors), a 5xx as
 * "Internal Server Error" with `ERR_INTERNAL` (or our own code). Every refusal, 4xx and 5xx, is
 * reported to `logger`/`onReject` (the jwe() or upload() handler's own when it raised the error).
 * For a request that arrived encrypted the answer is encrypted too, because it goes through `res.json`.
 */
export function jweErrorHandler(options: JweErrorHandlerOptions = {}): ErrorRequestHandler {
  const onError = options.onError ?? (options.logger ? undefined : logToStderr);
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TypeError('jweErrorHandler: "onError" must be a function.');
  }
  const own: RefusalReporting = {};
  if (options.logger) own.logger = options.logger;
  if (options.onReject) own.onReject = options.onReject;
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const status = statusOf(err);
    reportRefusal(err, attachedReporting(err) ?? own, describeRefusal(err));
    if (status >= 500 && onError) {
      try {
        onError(err, req, status);
      } catch {
        // A failing logger must not cost the client its answer.
      }
    }
    res.status(status).json(errorBody(err));
  };
}
