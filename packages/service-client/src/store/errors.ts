import { JweTransportError } from '@jwe-transport/codec';

export type StoreErrorCode = 'ERR_STORE_UNREACHABLE' | 'ERR_STORE_CLIENT_MISSING';

// The same brand check as the codec's isJweTransportError: a second copy or bundle of this
// package makes a second class, so instanceof alone would miss its errors.
const STORE_ERROR_BRAND = Symbol.for('@jwe-transport/service-client.StoreError');

/** A store that cannot be opened (a `JweTransportError`). Messages name the host, never a password. */
export class StoreError extends JweTransportError {
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'StoreError';
    Object.defineProperty(this, STORE_ERROR_BRAND, { value: true });
  }
}

export function isStoreError(value: unknown): value is StoreError {
  return (
    value instanceof StoreError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[STORE_ERROR_BRAND] === true)
  );
}

/** `redis://user:secret@host:6379/0` as `redis://host:6379/0`: what a log line may show. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return '(an invalid URL)';
  }
}
