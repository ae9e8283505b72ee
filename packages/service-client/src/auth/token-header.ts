/**
 * How the access token travels: `'authorization'` sends `Authorization: Bearer <token>`;
 * `'auth'` sends `auth: <token>`, the form the service's API reference allows beside it and its
 * JavaScript SDK uses.
 */
export type TokenHeader = 'authorization' | 'auth';

/** Throws a TypeError naming `where` unless `value` is a {@link TokenHeader} (or undefined). */
export function checkTokenHeader(value: unknown, where: string): TokenHeader {
  if (value === undefined) return 'authorization';
  if (value === 'authorization' || value === 'auth') return value;
  throw new TypeError(
    `${where}: tokenHeader must be "authorization" or "auth"; got ${JSON.stringify(value)}.`,
  );
}

/**
 * Puts `token` into `headers` in the chosen form, and removes the other form, so that a call
 * never carries two tokens (the service refuses two different ones).
 */
export function setAccessToken(headers: Headers, token: string, form: TokenHeader): void {
  if (form === 'auth') {
    headers.delete('authorization');
    headers.set('auth', token);
  } else {
    headers.delete('auth');
    headers.set('authorization', `Bearer ${token}`);
  }
}

/** The one header that carries `token` in the chosen form, as a plain record. */
export function tokenHeaders(token: string, form: TokenHeader = 'authorization'): Record<string, string> {
  return form === 'auth' ? { auth: token } : { authorization: `Bearer ${token}` };
}
