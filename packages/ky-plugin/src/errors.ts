import type { JweErrorCode } from '@jwe-transport/codec';

/**
 * A response that should have been an envelope but could not be read: it did not authenticate
 * (`ERR_JWE_DECRYPTION_FAILED`), was malformed (`ERR_JWE_INVALID`), named an unknown key
 * (`ERR_KEY_UNKNOWN`), and so on; `code` is the codec's. The message never contains key
 * material or plaintext; `cause` is the codec's `JweError`.
 */
export class JweResponseError extends Error {
  readonly code: JweErrorCode;
  /** The HTTP status of the response that failed to decrypt. */
  readonly status: number;
  /** The response as received (status and headers; its body has already been read). */
  readonly response: Response;

  constructor(code: JweErrorCode, status: number, response: Response, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'JweResponseError';
    this.code = code;
    this.status = status;
    this.response = response;
  }
}

export type JweRequestErrorCode =
  /** A `FormData` body has fields besides one `file`, which the encrypted upload format cannot carry. */
  | 'ERR_JWE_FORM_UNSUPPORTED'
  /** A large file needs the codec's streaming encoder, and this codec build has none. */
  | 'ERR_JWE_STREAM_UNAVAILABLE';

/** A request body that this plugin cannot encrypt as the service expects; nothing was sent. */
export class JweRequestError extends Error {
  readonly code: JweRequestErrorCode;

  constructor(code: JweRequestErrorCode, message: string) {
    super(message);
    this.name = 'JweRequestError';
    this.code = code;
  }
}

export function isJweResponseError(value: unknown): value is JweResponseError {
  return value instanceof JweResponseError;
}
