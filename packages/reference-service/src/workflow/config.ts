import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Delivery attempts per subscription when `deliveryAttempts` is not given (the first and four retries). */
export const DEFAULT_DELIVERY_ATTEMPTS = 5;

/** How the workflow part of the reference service behaves; every value but `clients` and `storageDir` has a default. */
export interface WorkflowConfig {
  /** Client credentials accepted by the login endpoint: client id to client secret. */
  clients: Record<string, string>;
  /** Where uploaded audio is kept (`<storageDir>/<folder>/<file>`), private to the service's user. */
  storageDir: string;
  /** Shared JWE keys by kid: JSON bodies may then arrive encrypted too. */
  keys?: Record<string, string>;
  /** `expires_in` of access tokens, seconds. Default 1800 (the documented example). */
  accessTokenSeconds?: number;
  /** `refresh_expires_in`, seconds. Default 86 400. */
  refreshTokenSeconds?: number;
  /**
   * How long a used refresh token still answers the pair it was exchanged for (concurrent
   * refreshes of one pair), seconds. Default 5; 0 turns it off. After it, reuse revokes the login.
   */
  refreshGraceSeconds?: number;
  /** Login attempts per client id and source address per minute. Default 10. */
  loginAttemptsPerMinute?: number;
  /** How long a transaction stays "processing" (answers 202) after start. Default 500 ms. */
  processingMs?: number;
  /** Which documented notification shape to send. Default `'event'`. */
  notificationShape?: 'event' | 'payload';
  /** Delivery attempts per subscription (1 + retries on failure). Default 5. */
  deliveryAttempts?: number;
  /** Wait before the first retry of a delivery, ms, doubling after each. Default 2000 (2+4+8+16 s). */
  deliveryBackoffMs?: number;
  /** Longest `Retry-After` of a receiver that is honoured, ms. Default 30 000. */
  deliveryMaxRetryAfterMs?: number;
  /** Hosts a subscription may name besides public `https` ones (plain `http` allowed for them). Default none. */
  webhookAllowHosts?: readonly string[];
  /** Subscriptions one client may hold. Default 10. */
  maxSubscriptionsPerClient?: number;
  /** Largest audio file the upload policy allows, bytes. Default 5 GiB (docs/wire-format.md). */
  maxFileBytes?: number;
  /** How long an upload grant's policy stays valid, seconds. Default 3600 (docs/wire-format.md). */
  grantSeconds?: number;
  /** Secret that signs upload policies. Default: random for each start. */
  storageSecret?: string;
  /** The clock for tokens, grants and rate limits, ms. Default `Date.now`. */
  now?: () => number;
  /** Where to say what happened (deliveries). Default: nowhere. */
  log?: (line: string) => void;
  /** Moves a received upload into its folder. Default `fs.rename`; tests hold it to order a race. */
  renameUpload?: (from: string, to: string) => Promise<void>;
}

export interface GeneratedClient {
  clientId: string;
  clientSecret: string;
}

function clientsFromJson(text: string, source: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${source} must be JSON: {"client-id": "client-secret", ...}.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${source} must be a JSON object: {"client-id": "client-secret", ...}.`);
  }
  const clients: Record<string, string> = {};
  for (const [id, secret] of Object.entries(value)) {
    if (id === '' || typeof secret !== 'string' || secret.length < 8) {
      throw new Error(`${source}: every client needs a non-empty id and a secret of at least 8 characters.`);
    }
    clients[id] = secret;
  }
  return clients;
}

/**
 * Clients from `CLIENTS` (JSON object of id to secret), `CLIENTS_FILE` (a file holding the same
 * JSON) and `CLIENT_ID`/`CLIENT_SECRET`; one client is generated when none is configured.
 */
export function clientsFromEnv(env: NodeJS.ProcessEnv): {
  clients: Record<string, string>;
  generated: GeneratedClient | undefined;
} {
  const clients: Record<string, string> = {};
  if (env.CLIENTS_FILE)
    Object.assign(clients, clientsFromJson(readFileSync(env.CLIENTS_FILE, 'utf8'), 'CLIENTS_FILE'));
  if (env.CLIENTS) Object.assign(clients, clientsFromJson(env.CLIENTS, 'CLIENTS'));
  if (env.CLIENT_ID || env.CLIENT_SECRET) {
    if (!env.CLIENT_ID || !env.CLIENT_SECRET)
      throw new Error('Set both CLIENT_ID and CLIENT_SECRET, or neither.');
    clients[env.CLIENT_ID] = env.CLIENT_SECRET;
  }
  if (Object.keys(clients).length > 0) return { clients, generated: undefined };
  const generated = { clientId: 'demo-client', clientSecret: randomBytes(18).toString('base64url') };
  return { clients: { [generated.clientId]: generated.clientSecret }, generated };
}

function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number.`);
  return value;
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The workflow's settings from the environment (see README.md); unset ones keep their defaults. */
export function workflowConfigFromEnv(
  env: NodeJS.ProcessEnv,
  base: Pick<WorkflowConfig, 'storageDir' | 'keys' | 'log'>,
): { config: WorkflowConfig; generated: GeneratedClient | undefined } {
  const { clients, generated } = clientsFromEnv(env);
  const config: WorkflowConfig = { ...base, clients, webhookAllowHosts: list(env.WEBHOOK_ALLOW_HOSTS) };
  const numbers = {
    accessTokenSeconds: 'TOKEN_EXPIRES_IN',
    processingMs: 'PROCESSING_MS',
    loginAttemptsPerMinute: 'LOGIN_ATTEMPTS_PER_MINUTE',
    refreshGraceSeconds: 'REFRESH_GRACE_SECONDS',
    maxSubscriptionsPerClient: 'MAX_SUBSCRIPTIONS_PER_CLIENT',
    maxFileBytes: 'UPLOAD_MAX_BYTES',
    deliveryAttempts: 'WEBHOOK_DELIVERY_ATTEMPTS',
    deliveryBackoffMs: 'WEBHOOK_RETRY_BACKOFF_MS',
    deliveryMaxRetryAfterMs: 'WEBHOOK_MAX_RETRY_AFTER_MS',
  } as const;
  for (const [key, name] of Object.entries(numbers)) {
    const value = numberFrom(env, name);
    if (value !== undefined) config[key as keyof typeof numbers] = value;
  }
  if (env.NOTIFICATION_SHAPE) {
    if (env.NOTIFICATION_SHAPE !== 'event' && env.NOTIFICATION_SHAPE !== 'payload')
      throw new Error('NOTIFICATION_SHAPE must be "event" or "payload".');
    config.notificationShape = env.NOTIFICATION_SHAPE;
  }
  if (env.STORAGE_SECRET) config.storageSecret = env.STORAGE_SECRET;
  return { config, generated };
}
