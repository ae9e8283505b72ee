import { JweTransportError } from '@jwe-transport/codec';

export type StoreErrorCode = 'ERR_STORE_UNREACHABLE' | 'ERR_STORE_CLIENT_MISSING';

/** A store that cannot be opened (a `JweTransportError`). Messages name the host, never a password. */
export class StoreError extends JweTransportError {
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'StoreError';
  }
}

export function isStoreError(value: unknown): value is StoreError {
  return value instanceof StoreError;
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
