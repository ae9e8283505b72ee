import { JweHttpError } from '@jwe-transport/server-core';

// The error class, its codes and the shared factories live in server-core; these are Express's own.
export {
  encodingUnsupported,
  encryptionRequired,
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
  parseFailed,
  requestAborted,
  toHttpError,
  tooLarge,
  uploadInvalid,
} from '@jwe-transport/server-core';

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

/** An envelope whose key members come after a ciphertext larger than the server will hold on disk. */
export function spillTooLarge(maxSpill: number): JweHttpError {
  const error = new JweHttpError(
    413,
    'entity.too.large',
    'ERR_JWE_SPILL_TOO_LARGE',
    `The envelope puts "kid", "protected" or "iv" after a "ciphertext" of more than ${maxSpill} bytes, ` +
      'which the server would have to store before it could check it. Send those members before "ciphertext".',
  );
  error.limit = maxSpill;
  return error;
}

export function charsetUnsupported(charset: string): JweHttpError {
  return new JweHttpError(
    415,
    'charset.unsupported',
    'ERR_CHARSET_UNSUPPORTED',
    `JSON bodies must be UTF-8; the request declares charset ${JSON.stringify(charset.slice(0, 20))}.`,
  );
}

export function requestTimeout(idleMs: number): JweHttpError {
  return new JweHttpError(
    408,
    'request.timeout',
    'ERR_REQUEST_TIMEOUT',
    `The client sent no body bytes for ${idleMs} ms, so the request was dropped. Send the body without pauses.`,
  );
}
