// The service as a library, for tests and the demo script.
export { createServiceApp } from './app.js';
export { configFromEnv, newSharedKey, parseKeys, type ServiceConfig } from './config.js';
export { type DocumentRecord, DocumentStore } from './document-store.js';
export { type RunningService, startService } from './server.js';
export * from './workflow/index.js';
