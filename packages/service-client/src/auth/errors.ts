import { JweTransportError } from '@jwe-transport/codec';

export type AuthErrorCode =
  /** The service refused the client credentials, or the login failed otherwise. */
  | 'ERR_AUTH_LOGIN_FAILED'
  /** The service refused the refresh token (expired or revoked); a new login is needed. */
  | 'ERR_AUTH_REFRESH_FAILED'
  /** The login or refresh endpoint could not be reached. */
  | 'ERR_AUTH_UNREACHABLE'
  /** The login or refresh answer had no usable tokens. */
  | 'ERR_AUTH_RESPONSE_INVALID';

// The same brand check as the codec's isJweTransportError: a second copy or bundle of this
// package makes a second class, so instanceof alone would miss its errors.
const AUTH_ERROR_BRAND = Symbol.for('@jwe-transport/service-client.AuthError');

/**
 * A failed login or refresh; a `JweTransportError` (of `@jwe-transport/codec`) with a stable `code`. `status` is the HTTP status when the service answered. The message
 * names what to check (spec 7: "Authentication failed: client id or client secret wrong") and
 * never contains a secret or a token.
 */
export class AuthError extends JweTransportError {
  declare readonly code: AuthErrorCode;
  readonly status: number | undefined;

  constructor(code: AuthErrorCode, message: string, details: { status?: number; cause?: unknown } = {}) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'AuthError';
    Object.defineProperty(this, AUTH_ERROR_BRAND, { value: true });
    this.status = details.status;
  }
}

export function isAuthError(value: unknown): value is AuthError {
  return (
    value instanceof AuthError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[AUTH_ERROR_BRAND] === true)
  );
}

/** The operation an HTTP failure belongs to, for its message. */
export type AuthOperation = 'login' | 'refresh';

export function refusedMessage(operation: AuthOperation, status: number): string {
  if (operation === 'login') {
    if (status === 400 || status === 401 || status === 403) {
      return `Authentication failed (HTTP ${status}): the service refused the client credentials. Check the client id and client secret issued by the service operator.`;
    }
    if (status === 404 || status === 405) {
      return `Login failed (HTTP ${status}): no login endpoint at that address. Check the base URL and the login path.`;
    }
    return `Login failed (HTTP ${status}): the service could not log in right now. Try again later; if it persists, check the base URL.`;
  }
  if (status === 400 || status === 401 || status === 403) {
    return `Token refresh refused (HTTP ${status}): the refresh token expired or was revoked. Log in again with the client credentials.`;
  }
  return `Token refresh failed (HTTP ${status}). Try again later; if it persists, check the base URL and the refresh path.`;
}
