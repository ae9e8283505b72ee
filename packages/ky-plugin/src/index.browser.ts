/**
 * `@jwe-transport/ky-plugin` for browsers and other non-Node runtimes: the plugin, the fetch
 * wrapper and the auth hooks. The transcription helpers read files from disk and stay Node-only.
 * @packageDocumentation
 */

export * from './auth/index.js';
export * from './public.js';
