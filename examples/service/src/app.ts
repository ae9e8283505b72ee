import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import express, { type Express } from 'express';
import { accessLog } from './access-log.js';
import { bearerAuth } from './bearer-auth.js';
import type { ServiceConfig } from './config.js';
import type { DocumentStore } from './document-store.js';
import { documentRoutes } from './routes/documents.js';
import { registrationRoutes } from './routes/registration.js';
import type { Workflow } from './workflow/index.js';

/** The reference service: bearer tokens, then the two example APIs, then JSON errors. */
export function createServiceApp(
  config: Pick<ServiceConfig, 'keys' | 'tokens' | 'uploadLimit'>,
  store: DocumentStore,
  options: { log?: (line: string) => void; workflow?: Workflow } = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  const { log } = options;
  if (log) app.use(accessLog(log));
  const transport = jwe({ keys: config.keys });
  // Login, refresh and the transcription workflow check their own issued tokens.
  if (options.workflow) app.use(options.workflow.router);
  app.use(bearerAuth(config.tokens));
  app.use(registrationRoutes(jwe({ keys: config.keys, requireEncryption: true })));
  app.use(documentRoutes(transport.upload({ dest: store.dir, limit: config.uploadLimit }), store));
  // Anything else: JSON bodies in either form, and a 404 in JSON.
  app.use(transport);
  app.use((_req, res) => {
    res.status(404).json({ error: { type: 'not.found', message: 'No such endpoint.' } });
  });
  app.use(jweErrorHandler());
  return app;
}
