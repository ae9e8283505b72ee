import { jwe } from '@jwe-transport/express-middleware';
import express, { type RequestHandler, Router } from 'express';
import { authRoutes, issuedTokenAuth } from './auth-routes.js';
import type { WorkflowConfig } from './config.js';
import { Deliverer } from './delivery.js';
import { WorkflowHttpError } from './errors.js';
import { resultRoutes } from './results.js';
import { SessionStore } from './sessions.js';
import { SubscriptionStore, subscriptionRoutes } from './subscriptions.js';
import { TokenIssuer } from './tokens.js';
import { uploadRoutes } from './upload.js';

export { type GeneratedClient, type WorkflowConfig, workflowConfigFromEnv } from './config.js';
export type { DeliveryRecord } from './delivery.js';
export type { AudioFileRecord, OutputItem } from './documents.js';
export type { Session } from './sessions.js';

/** Without keys an envelope would be read as plain JSON and fail validation confusingly: say why. */
function plainJsonOnly(parse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (/^jwe$/i.test(req.get('x-encryption') ?? '')) {
      res.setHeader('Connection', 'close');
      next(
        new WorkflowHttpError(
          415,
          'jwe.unsupported',
          'ERR_JWE_NOT_CONFIGURED',
          'This service has no JWE keys configured: send the body as plain JSON.',
        ),
      );
      return;
    }
    parse(req, res, next);
  };
}

/** The transcription workflow of the reference service, with its state open to tests. */
export interface Workflow {
  /** Mount before the service's static bearer check: `app.use(workflow.router)`. */
  router: Router;
  tokens: TokenIssuer;
  subscriptions: SubscriptionStore;
  sessions: SessionStore;
  deliveries: Deliverer;
  /** Stops pending completions and waits for deliveries in flight. */
  close(): Promise<void>;
}

/**
 * Login and refresh (field notes), webhook subscriptions (spec 4.4), audio upload (4.5) that
 * completes a session and delivers a signed `v2rx.completed` (6), and results (4.6). It does not
 * transcribe speech: documents describe the uploaded files.
 */
export function createWorkflow(config: WorkflowConfig): Workflow {
  const now = config.now ?? Date.now;
  const tokens = new TokenIssuer({
    clients: config.clients,
    accessTokenSeconds: config.accessTokenSeconds ?? 1800,
    refreshTokenSeconds: config.refreshTokenSeconds ?? 86_400,
    now,
  });
  const subscriptions = new SubscriptionStore();
  const deliveries = new Deliverer(subscriptions, {
    shape: config.notificationShape ?? 'event',
    attempts: Math.max(1, config.deliveryAttempts ?? 3),
    clientId: Object.keys(config.clients)[0] ?? 'client',
    log: config.log,
  });
  const sessions = new SessionStore(config.processingMs ?? 500, (session) => deliveries.deliver(session));
  // JSON bodies may arrive encrypted when the service has keys, like its other APIs.
  const json: RequestHandler =
    config.keys && Object.keys(config.keys).length > 0
      ? jwe({ keys: config.keys, limit: '16kb' })
      : plainJsonOnly(express.json({ limit: '16kb' }));
  const auth = issuedTokenAuth(tokens, config.staticTokens);
  const router = Router();
  router.use(authRoutes(tokens, json));
  router.use(subscriptionRoutes(subscriptions, auth, json));
  router.use(uploadRoutes(sessions, auth, config.maxFileBytes ?? 200 * 2 ** 20));
  router.use(resultRoutes(sessions, auth));
  return {
    router,
    tokens,
    subscriptions,
    sessions,
    deliveries,
    close: async () => {
      sessions.close();
      await deliveries.settled();
    },
  };
}
