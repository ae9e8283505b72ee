import { AuthError, type AuthOperation } from './errors.js';

/** Spec 2.5, with the lifetimes of docs/wire-format.md, "Transcription workflow" > "Auth" (seconds). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in?: number;
  refresh_expires_in?: number;
}

/** Reads a login or refresh answer; a refresh answer without `refresh_token` keeps the old one. */
export function parseTokenAnswer(body: unknown, operation: AuthOperation, previous?: TokenPair): TokenPair {
  const record = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const refreshToken =
    typeof record.refresh_token === 'string' ? record.refresh_token : previous?.refresh_token;
  if (typeof record.access_token !== 'string' || record.access_token === '' || !refreshToken) {
    throw new AuthError(
      'ERR_AUTH_RESPONSE_INVALID',
      `The ${operation} answer has no access_token and refresh_token: check that the ${operation} URL points at the service's auth endpoint.`,
    );
  }
  const pair: TokenPair = { access_token: record.access_token, refresh_token: refreshToken };
  if (typeof record.expires_in === 'number' && record.expires_in > 0) pair.expires_in = record.expires_in;
  if (typeof record.refresh_expires_in === 'number' && record.refresh_expires_in > 0) {
    pair.refresh_expires_in = record.refresh_expires_in;
  }
  return pair;
}
