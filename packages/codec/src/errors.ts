import { hasBrand, JweTransportError } from './transport-error.js';

// The same brand check as isJweTransportError: the codec ships two builds (Node and WebCrypto, each
// as ESM and CJS), and an application may load two copies, so class identity alone misses some.
const BRAND = Symbol.for('@jwe-transport/codec.JweError');

/**
 * Every failure the codec reports on purpose is a `JweError` with a stable `code`.
 * Messages say what to do next and never contain key material or plaintext.
 */
export type JweErrorCode =
  /** The envelope is malformed: shape, base64url, header JSON, compact form, payload shape. */
  | 'ERR_JWE_INVALID'
  /** The envelope asks for something this codec deliberately does not do (alg, enc, zip, crit). */
  | 'ERR_JWE_UNSUPPORTED'
  /** Authentication failed. One code and one message for every cause, so it cannot be an oracle. */
  | 'ERR_JWE_DECRYPTION_FAILED'
  /** A key is not usable: wrong type or wrong length. */
  | 'ERR_KEY_INVALID'
  /** A key resolver has no key for the envelope's `kid`. */
  | 'ERR_KEY_UNKNOWN'
  /** An input is larger than the configured limit. */
  | 'ERR_JWE_TOO_LARGE';

export class JweError extends JweTransportError {
  declare readonly code: JweErrorCode;

  constructor(code: JweErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'JweError';
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** The single message for all authentication failures (bad tag, bad padding, wrong key, tag length). */
export const DECRYPTION_FAILED_MESSAGE =
  'JWE decryption failed: the envelope did not authenticate. Check that both sides use the same shared key ' +
  '(and kid), and that the envelope was not modified or truncated in transit.';

export function decryptionFailed(): JweError {
  return new JweError('ERR_JWE_DECRYPTION_FAILED', DECRYPTION_FAILED_MESSAGE);
}

export function invalid(message: string): JweError {
  return new JweError('ERR_JWE_INVALID', message);
}

/** True for errors the codec raises, from any of its builds or copies. */
export function isJweError(value: unknown): value is JweError {
  return value instanceof JweError || hasBrand(value, BRAND);
}

/** Shortens untrusted text before it is quoted in a message, so errors stay readable and bounded. */
export function quote(value: unknown, max = 40): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
