// A brand rather than `instanceof` alone: packages ship separate ESM and CJS bundles, and an
// application may load two copies of one package, so class identity alone would miss some errors.
const BRAND = Symbol.for('@jwe-transport/error');

/**
 * The base class of every error any jwe-transport package raises on purpose: one `catch` and
 * one `code` to switch on, whichever package failed. Subclasses narrow `code` to their own
 * union and add what their layer knows (HTTP errors add `status`, `type` and `expose`).
 * Messages never contain key material or plaintext.
 */
export class JweTransportError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JweTransportError';
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True for errors raised by any jwe-transport package, from any of its bundles. */
export function isJweTransportError(value: unknown): value is JweTransportError {
  return value instanceof JweTransportError || hasBrand(value, BRAND);
}

/**
 * Whether `value` carries `brand` (a `Symbol.for` key its class's constructor defines): how every
 * `is…Error` guard of jwe-transport recognises its errors across bundles and copies.
 * @internal
 */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
