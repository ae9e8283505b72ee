/**
 * `@jwe-transport/undici-interceptor`: JWE request and response encryption as an undici interceptor.
 * @packageDocumentation
 */
export {
  DECRYPTED_HEADER,
  isJweRequestError,
  isJweResponseError,
  JweRequestError,
  type JweRequestErrorCode,
  JweResponseError,
  type JweResponseErrorCode,
} from '@jwe-transport/client-core/adapter';
export { type JweInterceptorOptions, jweInterceptor } from './interceptor.js';
