import { type JweErrorCode, JweTransportError } from '@jwe-transport/codec';

/** Why a request configured for encryption was not sent. Nothing left the client. */
export type JweRequestErrorCode =
  /** A `FormData` file sits in a field other than `fileField`. */
  | 'ERR_JWE_FILE_FIELD'
  /** A `FormData` body is not exactly one file in `fileField` (several files, extra fields, no file). */
  | 'ERR_JWE_FORM_UNSUPPORTED'
  /** The body is of a type the client cannot seal (text that is not JSON, URLSearchParams, ...). */
  | 'ERR_JWE_BODY_UNSUPPORTED'
  /** The key for the request could not be found or is unusable. */
  | 'ERR_KEY_UNKNOWN'
  | 'ERR_KEY_INVALID';

/** Why a response could not be opened. */
export type JweResponseErrorCode =
  /** A 2xx response to an encrypted request was not an envelope (opt out with `plainResponses: 'accept'`). */
  | 'ERR_JWE_RESPONSE_NOT_ENCRYPTED'
  /** The answer was read (and decrypted) but the process's `Response` class refused to build it. */
  | 'ERR_JWE_RESPONSE_UNBUILDABLE'
  | JweErrorCode;

// The same brand check as the codec's isJweTransportError: a second copy or bundle of this
// package makes a second class, so instanceof alone would miss its errors.
const JWE_REQUEST_ERROR_BRAND = Symbol.for('@jwe-transport/client-core.JweRequestError');

/**
 * A request body that cannot go out encrypted; the request was not sent. `code` is stable;
 * `message` says what the body was and how to fix it; neither carries key material or plaintext.
 */
export class JweRequestError extends JweTransportError {
  declare readonly code: JweRequestErrorCode;
  /** Always `false`: this is the client's own refusal, not something to show an end user. */
  readonly expose = false;

  constructor(code: JweRequestErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'JweRequestError';
    Object.defineProperty(this, JWE_REQUEST_ERROR_BRAND, { value: true });
  }
}

const JWE_RESPONSE_ERROR_BRAND = Symbol.for('@jwe-transport/client-core.JweResponseError');

/**
 * A response that should have been an envelope and could not be read, or one that should have
 * been encrypted and was not. `status` and `response` describe what arrived (its body has been
 * read); `cause` is the codec's `JweError` when the codec refused the envelope.
 */
export class JweResponseError extends JweTransportError {
  declare readonly code: JweResponseErrorCode;
  /** The HTTP status of the response as it arrived. */
  readonly status: number;
  /** The response as it arrived: status and headers; the body has already been read. */
  readonly response: Response;
  /** `'encryption'` for every error of this class, in the style of body-parser's `type`. */
  readonly type = 'encryption';
  readonly expose = false;

  constructor(
    code: JweResponseErrorCode,
    response: Response,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'JweResponseError';
    Object.defineProperty(this, JWE_RESPONSE_ERROR_BRAND, { value: true });
    this.status = response.status;
    this.response = response;
  }
}

export function isJweRequestError(value: unknown): value is JweRequestError {
  return (
    value instanceof JweRequestError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[JWE_REQUEST_ERROR_BRAND] === true)
  );
}

export function isJweResponseError(value: unknown): value is JweResponseError {
  return (
    value instanceof JweResponseError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[JWE_RESPONSE_ERROR_BRAND] === true)
  );
}

/**
 * A streamed upload that the connection cut off before any answer arrived (the server or a proxy
 * hung up without answering; an answer sent before hanging up is reported as that answer). `bytesSent` says how far it got;
 * `cause` is the HTTP client's own error (EPIPE, ECONNRESET).
 */
export class JweUploadError extends JweTransportError {
  declare readonly code: 'ERR_JWE_UPLOAD_INTERRUPTED';
  readonly bytesSent: number;
  readonly expose = false;

  constructor(message: string, bytesSent: number, options?: { cause?: unknown }) {
    super('ERR_JWE_UPLOAD_INTERRUPTED', message, options);
    this.name = 'JweUploadError';
    this.bytesSent = bytesSent;
  }
}
