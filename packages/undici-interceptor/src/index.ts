/**
 * `@jwe-transport/undici-interceptor`: JWE request and response encryption as an undici interceptor.
 * @packageDocumentation
 */
export { type JweInterceptorOptions, jweInterceptor } from './interceptor.js';
