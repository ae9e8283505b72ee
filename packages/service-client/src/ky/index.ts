/**
 * `@jwe-transport/service-client/ky`: bearer tokens from a `TokenSession` for your own ky
 * instance (ky 1.x and 2.x). The service client itself needs no ky: pass a ky instance as its
 * `fetch` if you want ky's retries and timeouts there.
 * @packageDocumentation
 */
export {
  type KyAuthHook,
  type KyAuthHooks,
  type KyAuthOptions,
  type KyRetryMarker,
  type KyRetrySource,
  kyAuth,
} from '../auth/ky-auth.js';
