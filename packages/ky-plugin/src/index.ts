/**
 * `@jwe-transport/ky-plugin`: JWE request and response encryption for ky (1.x and 2.x). The
 * client names it builds on (`createJweFetch`, the errors) are `@jwe-transport/client-core`'s.
 * @packageDocumentation
 */
export { type JweKyHook, type JweKyOptions, jwe } from './ky-hooks.js';
export type { JwePluginOptions } from './options.js';
