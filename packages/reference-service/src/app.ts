import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import express, { type Express } from 'express';
import { accessLog } from './access-log.js';
import { bearerAuth } from './bearer-auth.js';
import type { ServiceConfig } from './config.js';
import { cors } from './cors.js';
import type { DocumentStore } from './document-store.js';
import { documentRoutes } from './routes/documents.js';
import { registrationRoutes } from './routes/registration.js';
import type { Workflow } from './workflow/index.js';

/** The reference service: CORS, the workflow, bearer tokens, the two example APIs, then JSON errors. */
export function createServiceApp(
  config: Pick<ServiceConfig, 'keys' | 'tokens' | 'uploadLimit' | 'corsOrigins'>,
  store: DocumentStore,
  workflow: Workflow,
  options: { log?: (line: string) => void } = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  const { log } = options;
  if (log) app.use(accessLog(log));
  app.use(cors(config.corsOrigins ?? []));
  const transport = jwe({ keys: config.keys });
  // Login, refresh, the transcription steps and storage check their own credentials.
  app.use(workflow.router);
  app.use(bearerAuth(config.tokens, (token) => workflow.tokens.clientOf(token)));
  app.use(registrationRoutes(jwe({ keys: config.keys, requireEncryption: true })));
  app.use(documentRoutes(transport.upload({ dest: store.incomingDir, limit: config.uploadLimit }), store));
  // Anything else: JSON bodies in either form, and a 404 in JSON.
  app.use(transport);
  app.use((_req, res) => {
    res
      .status(404)
      .json({ error: { type: 'not.found', code: 'ERR_NOT_FOUND', message: 'No such endpoint.' } });
  });
  app.use(jweErrorHandler());
  return app;
}
