import { isJweError, type JweErrorCode, JweTransportError } from '@jwe-transport/codec';
import type { Opened } from './opened.js';

/** The `type` of every HTTP error this package and its adapters raise, in body-parser's style. */
export type JweHttpErrorType =
  | 'jwe.envelope.invalid'
  | 'jwe.unsupported'
  | 'jwe.kid.unknown'
  | 'jwe.decrypt.failed'
  | 'jwe.required'
  | 'jwe.key.invalid'
  | 'jwe.header.invalid'
  | 'jwe.plaintext.invalid'
  | 'jwe.mount.order'
  /** The answer of a route whose own answer could not be sealed (see `SealFailure`). */
  | 'jwe.encrypt.failed'
  | 'entity.too.large'
  | 'charset.unsupported'
  | 'request.timeout'
  | 'entity.parse.failed'
  | 'encoding.unsupported'
  | 'request.aborted'
  | 'upload.invalid';

/** Stable codes: the codec's code where the failure comes from the codec, our own otherwise. */
export type JweHttpErrorCode =
  | JweErrorCode
  | 'ERR_JWE_REQUIRED'
  | 'ERR_JWE_HEADER_INVALID'
  | 'ERR_JWE_PLAINTEXT_INVALID'
  | 'ERR_JWE_MOUNT_ORDER'
  /** The answer could not be sealed: a plain 500 went out instead, never the plaintext (see `SealFailure`). */
  | 'ERR_JWE_ENCRYPT_FAILED'
  | 'ERR_JSON_TOO_DEEP'
  | 'ERR_INTERNAL'
  | 'ERR_CHARSET_UNSUPPORTED'
  | 'ERR_REQUEST_TIMEOUT'
  | 'ERR_BODY_PARSE'
  | 'ERR_ENCODING_UNSUPPORTED'
  | 'ERR_REQUEST_ABORTED'
  | 'ERR_UPLOAD_INVALID';

/**
 * The state of errors other than `JweHttpError`s raised after authentication (a runtime's own
 * error, say), kept beside them rather than on them, so that no logger prints the key.
 */
const openedByError = new WeakMap<object, Opened>();

// A brand rather than `instanceof` alone: the package's two entry points are separate bundles.
const BRAND = Symbol.for('@jwe-transport/server-core.JweHttpError');

/**
 * An HTTP error as body-parser makes them: `status`/`statusCode`, `expose` (may the message be
 * shown to the client), a `type` to switch on and a stable `code`. Messages never contain keys
 * or plaintext. The one error class of every server adapter, Express included; it extends the
 * codec's `JweTransportError`, so `isJweTransportError` recognises it as well.
 */
export class JweHttpError extends JweTransportError {
  readonly status: number;
  readonly statusCode: number;
  readonly expose: boolean;
  readonly type: JweHttpErrorType;
  declare readonly code: JweHttpErrorCode;
  /** For `entity.too.large`: the configured limit in bytes. */
  limit?: number;
  /** For `entity.too.large`: the declared or observed length that exceeded it. */
  length?: number;
  /**
   * The `kid` the request's envelope named, when one was read. Not authenticated (the request
   * may have failed because of it): a clue for logs, not an identity.
   */
  kid?: string;
  /**
   * The request's state once its envelope authenticated: the answer to this error is sealed
   * under the same key. A private field, so no logger or `util.inspect` prints the key.
   */
  #opened: Opened | undefined;

  constructor(
    status: number,
    type: JweHttpErrorType,
    code: JweHttpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'JweHttpError';
    this.status = status;
    this.statusCode = status;
    this.expose = status < 500;
    this.type = type;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Whether the request's envelope authenticated before this error, so its answer goes out sealed. */
  get authenticated(): boolean {
    return this.#opened !== undefined;
  }

  /** Marks the error as raised after `opened` authenticated (and notes its kid); returns it. */
  static afterAuthentication(error: JweHttpError, opened: Opened): JweHttpError {
    error.#opened = opened;
    if (opened.info.kid !== undefined) error.kid ??= opened.info.kid;
    return error;
  }

  /**
   * The state an error raised after authentication carries: a `JweHttpError` marked with
   * `afterAuthentication`, or any other error object the engine marked (`undefined` otherwise).
   */
  static openedOf(error: unknown): Opened | undefined {
    if (error instanceof JweHttpError) return error.#opened;
    return typeof error === 'object' && error !== null ? openedByError.get(error) : undefined;
  }
}

/** Notes the kid a failed request named on its error, for the refusal's log line. */
export function withKid<E>(error: E, kid: string | undefined): E {
  if (kid !== undefined && error instanceof JweHttpError) error.kid ??= kid;
  return error;
}

/**
 * Marks `error` as raised after the request authenticated, so its answer is sealed like any
 * other: a `JweHttpError` carries the state itself, any other error object has it kept beside it.
 * Only a thrown primitive cannot be marked: its answer is the plain 500.
 */
export function afterAuthentication<E>(error: E, opened: Opened): E {
  if (error instanceof JweHttpError) JweHttpError.afterAuthentication(error, opened);
  else if (typeof error === 'object' && error !== null) openedByError.set(error, opened);
  return error;
}

export function isJweHttpError(value: unknown): value is JweHttpError {
  return (
    value instanceof JweHttpError ||
    (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true)
  );
}

export function tooLarge(limit: number, length: number | undefined, what = 'The request body'): JweHttpError {
  const error = new JweHttpError(
    413,
    'entity.too.large',
    'ERR_JWE_TOO_LARGE',
    `${what} is larger than this endpoint accepts (${limit} bytes). Send a smaller body.`,
  );
  error.limit = limit;
  if (length !== undefined) error.length = length;
  return error;
}

export function encryptionRequired(): JweHttpError {
  return new JweHttpError(
    415,
    'jwe.required',
    'ERR_JWE_REQUIRED',
    'This endpoint accepts only encrypted bodies: send a JWE envelope with the header "X-Encryption: JWE".',
  );
}

export function headerInvalid(message: string): JweHttpError {
  return new JweHttpError(400, 'jwe.header.invalid', 'ERR_JWE_HEADER_INVALID', message);
}

export function plaintextInvalid(message: string): JweHttpError {
  return new JweHttpError(400, 'jwe.plaintext.invalid', 'ERR_JWE_PLAINTEXT_INVALID', message);
}

export function parseFailed(what: string, problem = 'is not valid JSON'): JweHttpError {
  return new JweHttpError(400, 'entity.parse.failed', 'ERR_BODY_PARSE', `${what} ${problem}.`);
}

export function encodingUnsupported(encoding: string): JweHttpError {
  return new JweHttpError(
    415,
    'encoding.unsupported',
    'ERR_ENCODING_UNSUPPORTED',
    `Content-Encoding ${JSON.stringify(encoding.slice(0, 20))} is not supported: send the body uncompressed.`,
  );
}

export function requestAborted(): JweHttpError {
  return new JweHttpError(
    400,
    'request.aborted',
    'ERR_REQUEST_ABORTED',
    'The client closed the request before its body was complete.',
  );
}

/** Decrypted or plain JSON nested deeper than the server's `maxDepth` (reflecting it would overflow the stack). */
export function jsonTooDeep(what: string, maxDepth: number): JweHttpError {
  return new JweHttpError(
    400,
    'entity.parse.failed',
    'ERR_JSON_TOO_DEEP',
    `${what} nests objects and arrays deeper than ${maxDepth} levels, which this server refuses.`,
  );
}

/** An unknown `kid`, refused as soon as the streaming scanner reads it. */
export function unknownKid(kid: string): JweHttpError {
  return new JweHttpError(
    400,
    'jwe.kid.unknown',
    'ERR_KEY_UNKNOWN',
    `No key is configured for kid ${JSON.stringify(kid.slice(0, 64))}: encrypt with a key this server knows.`,
  );
}

/**
 * Another body parser read an encrypted request first. Decrypting its parse would skip the
 * envelope's duplicate-member check, so this is a server error the log must show, not a fallback.
 */
export function mountOrder(where: string): JweHttpError {
  return new JweHttpError(
    500,
    'jwe.mount.order',
    'ERR_JWE_MOUNT_ORDER',
    `${where}: another body parser (express.json()?) already read this encrypted request. ` +
      'Mount jwe() and upload routes before express.json(), or keep express.json() off encrypted ' +
      "requests with its type option: express.json({ type: (req) => !req.headers['x-encryption'] && ... }).",
  );
}

/** A JSON body declared in another charset than UTF-8 (body-parser answers 415 too). */
export function charsetUnsupported(charset: string): JweHttpError {
  return new JweHttpError(
    415,
    'charset.unsupported',
    'ERR_CHARSET_UNSUPPORTED',
    `JSON bodies must be UTF-8; the request declares charset ${JSON.stringify(charset.slice(0, 20))}.`,
  );
}

/** A client that went quiet while sending its body. */
export function requestTimeout(idleMs: number): JweHttpError {
  return new JweHttpError(
    408,
    'request.timeout',
    'ERR_REQUEST_TIMEOUT',
    `The client sent no body bytes for ${idleMs} ms, so the request was dropped. Send the body without pauses.`,
  );
}

export function uploadInvalid(message: string): JweHttpError {
  return new JweHttpError(400, 'upload.invalid', 'ERR_UPLOAD_INVALID', message);
}

/**
 * An answer the server could not seal. The cause's message is the codec's or the runtime's (a
 * key of the wrong size, an answer too large for one string): sizes and types, never key material.
 */
export function encryptFailed(status: number, body: string | Uint8Array, cause: unknown): JweHttpError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const size = typeof body === 'string' ? `${body.length} characters` : `${body.byteLength} bytes`;
  return new JweHttpError(
    500,
    'jwe.encrypt.failed',
    'ERR_JWE_ENCRYPT_FAILED',
    `The route's ${status} answer (${size} of JSON) could not be encrypted, so the client got a plain 500 instead: ${reason}`,
    { cause },
  );
}

export function noResponseKey(): JweHttpError {
  return new JweHttpError(
    500,
    'jwe.key.invalid',
    'ERR_KEY_UNKNOWN',
    'The server has no key to encrypt its answer with.',
  );
}

/** The one message for every authentication failure, so a client learns nothing about the cause. */
const DECRYPT_FAILED_MESSAGE =
  'The encrypted body did not authenticate. Check that the request uses the shared key that belongs to its kid, ' +
  'and that the envelope was not modified in transit.';

const FROM_CODEC: Record<JweErrorCode, { status: number; type: JweHttpErrorType }> = {
  ERR_JWE_INVALID: { status: 400, type: 'jwe.envelope.invalid' },
  ERR_JWE_UNSUPPORTED: { status: 400, type: 'jwe.unsupported' },
  ERR_KEY_UNKNOWN: { status: 400, type: 'jwe.kid.unknown' },
  ERR_JWE_DECRYPTION_FAILED: { status: 400, type: 'jwe.decrypt.failed' },
  ERR_JWE_TOO_LARGE: { status: 413, type: 'entity.too.large' },
  // The server's own key configuration is broken; the client can do nothing about it.
  ERR_KEY_INVALID: { status: 500, type: 'jwe.key.invalid' },
};

/** Turns a codec failure into the HTTP error for it; anything else is returned unchanged. */
export function toHttpError(error: unknown): unknown {
  if (!isJweError(error)) return error;
  const { status, type } = FROM_CODEC[error.code];
  const message =
    error.code === 'ERR_JWE_DECRYPTION_FAILED'
      ? DECRYPT_FAILED_MESSAGE
      : error.code === 'ERR_KEY_INVALID'
        ? 'The server could not use its key for this request.'
        : error.message;
  return new JweHttpError(status, type, error.code, message, { cause: error });
}
