/**
 * `@jwe-transport/service-client/auth`: login with client credentials and refresh on the
 * documented endpoints, a token session that renews before expiry (shared across processes with a
 * store), and a fetch that adds the bearer token.
 * @packageDocumentation
 */

export type { FetchLike } from '../http/fetch-like.js';
export { MemoryStore, type MemoryStoreOptions } from '../store/memory.js';
export type { KeyValueStore } from '../store/types.js';
export { type BearerOptions, withBearer } from './bearer-fetch.js';
export {
  type AuthEndpointOptions,
  type ClientCredentials,
  clientCredentialsLogin,
  LOGIN_PATH,
  REFRESH_PATH,
  refreshTokenExchange,
} from './endpoints.js';
export { AuthError, type AuthErrorCode, type AuthOperation, isAuthError } from './errors.js';
export {
  createTokenSession,
  TokenSession,
  type TokenSessionOptions,
  type TokenSessionStats,
} from './session.js';
export type { TokenHeader } from './token-header.js';
export { parseTokenAnswer, type TokenPair } from './tokens.js';
