/**
 * `@jwe-transport/client-core` on Node.js: everything from the default build, plus helpers that
 * stream files from disk and hand sealed bodies to Node streams.
 * @packageDocumentation
 */

export * from './index.js';
export { fileFromPath, toNodeReadable } from './node/files.js';
