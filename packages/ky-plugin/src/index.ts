/**
 * `@jwe-transport/ky-plugin`: JWE request and response encryption for ky (1.x and 2.x) and fetch.
 * @packageDocumentation
 */

export * from './public.js';
