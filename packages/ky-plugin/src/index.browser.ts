/**
 * `@jwe-transport/ky-plugin` for browsers and other non-Node runtimes: the plugin and the fetch
 * wrapper (the auth hooks and transcription helpers moved to `@jwe-transport/service-client`).
 * @packageDocumentation
 */

export * from './public.js';
