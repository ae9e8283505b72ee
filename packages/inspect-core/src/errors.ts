import { JweTransportError } from '@jwe-transport/codec';

/** Codes of the failures the engine detects itself; codec failures keep their own `ERR_JWE_*` code. */
export type InspectErrorCode =
  /** The input is not an envelope, an HTTP message or a HAR file (or is one, damaged beyond reading). */
  | 'ERR_NOT_AN_ENVELOPE'
  /** A key text is unusable: wrong length, duplicate kid, empty. */
  | 'ERR_KEY_INVALID'
  /** No key given authenticated the envelope. */
  | 'ERR_JWE_DECRYPTION_FAILED';

// The same brand check as the codec's isJweTransportError: a second copy or bundle of this
// package makes a second class, so instanceof alone would miss its errors.
const INSPECT_ERROR_BRAND = Symbol.for('@jwe-transport/inspect-core.InspectError');

/**
 * A failure a person can act on: a stable `code` and a message that says what to do next.
 * Messages never contain key material or plaintext, so they can be shown and logged as they are.
 */
export class InspectError extends JweTransportError {
  declare readonly code: InspectErrorCode;

  constructor(code: InspectErrorCode, message: string) {
    super(code, message);
    this.name = 'InspectError';
    Object.defineProperty(this, INSPECT_ERROR_BRAND, { value: true });
  }
}

/** True for the engine's errors, also from another copy or bundle of the package (the base class's brand). */
export function isInspectError(value: unknown): value is InspectError {
  return (
    value instanceof InspectError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[INSPECT_ERROR_BRAND] === true)
  );
}
