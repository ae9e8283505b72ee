import type { FetchLike } from '../http/fetch-like.js';
import type { TokenSession } from './session.js';
import { checkTokenHeader, setAccessToken, type TokenHeader } from './token-header.js';

/** Bodies that can be sent a second time as they are. */
function replayable(body: RequestInit['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams;
}

export interface BearerOptions {
  /**
   * Sent as the `Client-Id` header on every call, as the service's own clients do (docs/wire-format.md,
   * "Transcription workflow").
   */
  clientId?: string | undefined;
  /** `'authorization'` (default): `Authorization: Bearer <token>`; `'auth'`: `auth: <token>`. */
  tokenHeader?: TokenHeader | undefined;
}

/**
 * Wraps a fetch so that every call carries the access token from `session` (logging in or
 * renewing first when needed) as `Authorization: Bearer <token>`, or as `auth: <token>` with
 * `tokenHeader: 'auth'`, and `Client-Id` when given. After a 401 the session
 * renews (one renewal for all callers) and a call with a replayable body is sent once more.
 */
export function withBearer(
  fetchImpl: FetchLike,
  session: TokenSession,
  options: BearerOptions = {},
): FetchLike {
  const { clientId } = options;
  const form = checkTokenHeader(options.tokenHeader, 'withBearer()');
  return async (input, init = {}) => {
    const call = async (token: string) => {
      const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
      setAccessToken(headers, token, form);
      if (clientId !== undefined) headers.set('client-id', clientId);
      return fetchImpl(input, { ...init, headers });
    };
    const token = await session.accessToken();
    const response = await call(token);
    if (response.status !== 401 || !replayable(init.body)) return response;
    await response.body?.cancel();
    return call(await session.renewAfterRejection(token));
  };
}
