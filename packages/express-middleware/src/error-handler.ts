import { JweServer, type RefusalReporting } from '@jwe-transport/server-core';
import { reportingOf, reportRefusal } from '@jwe-transport/server-core/adapter';
import type { ErrorRequestHandler, Request } from 'express';
import { refusalReportingOf } from './request-state.js';

/** Told about every error answered with a 5xx status: the server's faults, which someone must see. */
export type ServerErrorListener = (error: unknown, req: Request, status: number) => void;

export interface JweErrorHandlerOptions extends RefusalReporting {
  /**
   * Called for each 5xx answer, after it is logged and before it is written. The error never
   * holds keys or decrypted bodies from this package.
   */
  onError?: ServerErrorListener;
}

/** Decides error answers only (it holds no key: answers to encrypted requests are sealed by `res.json`). */
const refusals = new JweServer({ keys: () => undefined, responses: 'never' });

/**
 * Answers errors as JSON with the server core's one error body: `{"error": {"type", "code",
 * "message"}}`, the message shown only for errors marked `expose` (client errors), a 5xx as
 * "Internal Server Error" with `ERR_INTERNAL` (or our own code). Every refusal, 4xx and 5xx, is
 * reported with the request's method and path to `logger`/`onReject` (the jwe() or upload()
 * handler's own when it raised the error; by default one line on the console). For a request
 * that arrived encrypted the answer is encrypted too, because it goes through `res.send`.
 */
export function jweErrorHandler(options: JweErrorHandlerOptions = {}): ErrorRequestHandler {
  const onError = options.onError;
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TypeError('jweErrorHandler: "onError" must be a function.');
  }
  const own = reportingOf(options);
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const refusal = refusals.refusal(err, req.jwe && { info: req.jwe, responseKey: undefined });
    reportRefusal(err, refusalReportingOf(req) ?? own, refusal.report, {
      method: req.method,
      path: req.originalUrl ?? req.url,
    });
    if (refusal.status >= 500 && onError) {
      try {
        onError(err, req, refusal.status);
      } catch {
        // A failing logger must not cost the client its answer.
      }
    }
    res.status(refusal.status).set(refusal.headers).send(refusal.body);
  };
}
