import { chmod, mkdir } from 'node:fs/promises';
import { jwe } from '@jwe-transport/express-middleware';
import express, { type RequestHandler, Router } from 'express';
import { authRoutes, issuedTokenAuth } from './auth-routes.js';
import { DEFAULT_DELIVERY_ATTEMPTS, type WorkflowConfig } from './config.js';
import { Deliverer } from './delivery.js';
import { EndpointPolicy } from './endpoint-policy.js';
import { WorkflowHttpError } from './errors.js';
import { grantRoutes } from './grant-route.js';
import { LoginLimiter } from './login-limiter.js';
import { PolicySigner } from './storage-policy.js';
import { storageRoutes } from './storage-route.js';
import { SubscriptionStore, subscriptionRoutes } from './subscriptions.js';
import { TokenIssuer } from './tokens.js';
import { transactionRoutes } from './transaction-routes.js';
import { TransactionStore } from './transactions.js';

export {
  clientsFromEnv,
  type GeneratedClient,
  type WorkflowConfig,
  workflowConfigFromEnv,
} from './config.js';
export {
  Deliverer,
  type DeliveryOptions,
  type DeliveryRecord,
  notificationBody,
  retryAfterMs,
  SIGNATURE_HEADER,
  signature,
} from './delivery.js';
export type { AudioFileRecord, OutputItem } from './documents.js';
export { EndpointPolicy, isInternalAddress } from './endpoint-policy.js';
export { STORAGE_PATH } from './storage-policy.js';
export { SubscriptionStore } from './subscriptions.js';
export type { Transaction } from './transactions.js';

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
  /** Mount before the service's other routes: `app.use(workflow.router)`. */
  router: Router;
  tokens: TokenIssuer;
  subscriptions: SubscriptionStore;
  transactions: TransactionStore;
  deliveries: Deliverer;
  /** The issued-token check, for other routes that want to know the calling client. */
  auth: RequestHandler;
  /** Stops pending completions and waits for deliveries in flight. */
  close(): Promise<void>;
}

/**
 * Login and refresh, webhook subscriptions, the four transcription steps (grant, presigned
 * storage POST, start, status) and the signed `v2rx.completed` (docs/wire-format.md). It does not
 * transcribe speech: documents describe the uploaded files.
 */
export async function createWorkflow(config: WorkflowConfig): Promise<Workflow> {
  const now = config.now ?? Date.now;
  // Audio is kept private to the service's user, whatever the umask.
  await mkdir(config.storageDir, { recursive: true, mode: 0o700 });
  await chmod(config.storageDir, 0o700);
  const tokens = new TokenIssuer(config.clients, {
    accessSeconds: config.accessTokenSeconds ?? 1800,
    refreshSeconds: config.refreshTokenSeconds ?? 86_400,
    graceMs: (config.refreshGraceSeconds ?? 5) * 1000,
    now,
  });
  const limiter = new LoginLimiter(
    config.loginAttemptsPerMinute ?? 10,
    new Set(Object.keys(config.clients)),
    now,
  );
  const policy = new EndpointPolicy(config.webhookAllowHosts ?? []);
  const subscriptions = new SubscriptionStore();
  const deliveries = new Deliverer(subscriptions, policy, {
    shape: config.notificationShape ?? 'event',
    attempts: Math.max(1, config.deliveryAttempts ?? DEFAULT_DELIVERY_ATTEMPTS),
    backoffMs: config.deliveryBackoffMs ?? 2000,
    maxRetryAfterMs: config.deliveryMaxRetryAfterMs ?? 30_000,
    log: config.log,
  });
  const transactions = new TransactionStore(config.processingMs ?? 500, (transaction) =>
    deliveries.deliver(transaction),
  );
  const signer = new PolicySigner(config.storageSecret);
  // JSON bodies may arrive encrypted when the service has keys, like its other APIs.
  const json: RequestHandler =
    config.keys && Object.keys(config.keys).length > 0
      ? jwe({ keys: config.keys, limit: '64kb' })
      : plainJsonOnly(express.json({ limit: '64kb' }));
  const auth = issuedTokenAuth(tokens);
  const router = Router();
  router.use(authRoutes(tokens, limiter, json));
  router.use(
    subscriptionRoutes(subscriptions, auth, json, {
      policy,
      maxPerClient: config.maxSubscriptionsPerClient ?? 10,
    }),
  );
  router.use(
    grantRoutes(transactions, signer, auth, {
      now,
      grantSeconds: config.grantSeconds ?? 3600,
      maxFileBytes: config.maxFileBytes ?? 5 * 2 ** 30,
    }),
  );
  router.use(
    storageRoutes(transactions, signer, {
      storageDir: config.storageDir,
      now,
      ...(config.renameUpload ? { rename: config.renameUpload } : {}),
    }),
  );
  router.use(transactionRoutes(transactions, auth, json));
  return {
    router,
    tokens,
    subscriptions,
    transactions,
    deliveries,
    auth,
    close: async () => {
      transactions.close();
      await deliveries.close();
    },
  };
}
