import type { ErrorRequestHandler } from 'express';

interface HttpErrorLike {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
  message?: unknown;
}

function statusOf(error: HttpErrorLike): number {
  const status = error.status ?? error.statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600
    ? status
    : 500;
}

/**
 * Answers errors as JSON: `{"error": {"type", "code", "message"}}`. The message is shown only for
 * errors marked `expose` (client errors); everything else reads "Internal Server Error". For a
 * request that arrived encrypted the answer is encrypted too, because it goes through `res.json`.
 */
export function jweErrorHandler(): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const error = (err !== null && typeof err === 'object' ? err : {}) as HttpErrorLike;
    const status = statusOf(error);
    const expose = error.expose === true && status < 500;
    const body: Record<string, unknown> = {
      type:
        typeof error.type === 'string' && expose
          ? error.type
          : status >= 500
            ? 'server.error'
            : 'request.invalid',
    };
    if (typeof error.code === 'string' && expose) body.code = error.code;
    body.message =
      expose && typeof error.message === 'string'
        ? error.message
        : status >= 500
          ? 'Internal Server Error'
          : 'Bad Request';
    res.status(status).json({ error: body });
  };
}
