export {
  type AuthEndpointOptions,
  type ClientCredentials,
  clientCredentialsLogin,
  LOGIN_PATH,
  REFRESH_PATH,
  refreshTokenExchange,
} from './endpoints.js';
export { AuthError, type AuthErrorCode, isAuthError } from './errors.js';
export {
  type KyAuthHook,
  type KyAuthHooks,
  type KyAuthOptions,
  type KyRetryMarker,
  type KyRetrySource,
  kyAuth,
} from './ky-hooks.js';
export {
  createTokenSession,
  TokenSession,
  type TokenSessionOptions,
  type TokenSessionStats,
} from './session.js';
export { parseTokenAnswer, type TokenPair } from './tokens.js';
