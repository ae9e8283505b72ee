import type { FetchLike } from '../http/fetch-like.js';
import type { TokenSession } from './session.js';

/** Bodies that can be sent a second time as they are. */
function replayable(body: RequestInit['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams;
}

/**
 * Wraps a fetch so that every call carries `Authorization: Bearer <access token>` from `session`
 * (logging in or renewing first when needed). After a 401 the session renews (one renewal for
 * all callers) and a call with a replayable body is sent once more.
 */
export function withBearer(fetchImpl: FetchLike, session: TokenSession): FetchLike {
  return async (input, init = {}) => {
    const call = async (token: string) => {
      const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
      headers.set('authorization', `Bearer ${token}`);
      return fetchImpl(input, { ...init, headers });
    };
    const token = await session.accessToken();
    const response = await call(token);
    if (response.status !== 401 || !replayable(init.body)) return response;
    await response.body?.cancel();
    return call(await session.renewAfterRejection(token));
  };
}
