/**
 * `@jwe-transport/ky-plugin`: JWE request and response encryption for ky (1.x and 2.x) and fetch.
 * @packageDocumentation
 */

export { isJweResponseError, JweRequestError, type JweRequestErrorCode, JweResponseError } from './errors.js';
export {
  createJweFetch,
  type FetchImplementation,
  type JweFetch,
  type JweRequestInit,
} from './fetch.js';
export { type JweKyHook, type JweKyOptions, jwe } from './ky-hooks.js';
export {
  DEFAULT_STREAM_THRESHOLD,
  type JweOptions,
  type JweRequestContext,
  type RequestFilter,
  type ResponseMode,
} from './options.js';
