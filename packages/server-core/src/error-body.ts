interface HttpErrorLike {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
  message?: unknown;
}

/** The HTTP status an error asks for: its `status`/`statusCode` when that is a 4xx or 5xx, else 500. */
export function statusOf(error: unknown): number {
  const candidate = (error !== null && typeof error === 'object' ? error : {}) as HttpErrorLike;
  const status = candidate.status ?? candidate.statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600
    ? status
    : 500;
}

/** The JSON body of an error answer, as every adapter writes it. */
export interface ErrorBody {
  error: { type: string; code?: string; message: string };
}

/**
 * `{"error": {"type", "code", "message"}}`: the message, type and code are shown only for errors
 * marked `expose` (client errors); a 5xx reads "Internal Server Error" and carries our `code`
 * when the failure is ours and `ERR_INTERNAL` otherwise, so nothing about the server's internals leaks.
 */
export function errorBody(error: unknown): ErrorBody {
  const candidate = (error !== null && typeof error === 'object' ? error : {}) as HttpErrorLike;
  const status = statusOf(error);
  const expose = candidate.expose === true && status < 500;
  const type =
    typeof candidate.type === 'string' && expose
      ? candidate.type
      : status >= 500
        ? 'server.error'
        : 'request.invalid';
  const code =
    typeof candidate.code === 'string' && (expose || /^ERR_(JWE|KEY)_/.test(candidate.code))
      ? candidate.code
      : status >= 500
        ? 'ERR_INTERNAL'
        : undefined;
  const message =
    expose && typeof candidate.message === 'string'
      ? candidate.message
      : status >= 500
        ? 'Internal Server Error'
        : 'Bad Request';
  const body: ErrorBody['error'] = code === undefined ? { type, message } : { type, code, message };
  return { error: body };
}
