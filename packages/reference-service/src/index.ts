/**
 * `@jwe-transport/reference-service`: the transcription service's documented API on Express, for
 * end-to-end tests and local development. Node only; it listens on 127.0.0.1.
 * @packageDocumentation
 */
export { createServiceApp } from './app.js';
export { configFromEnv, newSharedKey, parseKeys, type ServiceConfig } from './config.js';
export { type DocumentRecord, DocumentStore } from './document-store.js';
export { type RunningService, startService } from './server.js';
export * from './workflow/index.js';
