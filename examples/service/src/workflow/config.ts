import { randomBytes } from 'node:crypto';

/** How the workflow part of the reference service behaves; every value has a default. */
export interface WorkflowConfig {
  /** Client credentials accepted by the login endpoint: client id to client secret. */
  clients: Record<string, string>;
  /** Static bearer tokens accepted besides the issued ones (the service's ACCESS_TOKENS). */
  staticTokens?: readonly string[];
  /** Shared JWE keys by kid: JSON bodies may then arrive encrypted too. */
  keys?: Record<string, string>;
  /** `expires_in` of access tokens, seconds. Default 1800 (the field notes' example). */
  accessTokenSeconds?: number;
  /** `refresh_expires_in`, seconds. Default 86 400. */
  refreshTokenSeconds?: number;
  /** How long a session stays "processing" (answers 202) before it completes. Default 500 ms. */
  processingMs?: number;
  /** Which documented notification shape to send. Default `'event'`. */
  notificationShape?: 'event' | 'payload';
  /** Delivery attempts per subscription (1 + retries on failure). Default 3. */
  deliveryAttempts?: number;
  /** Largest audio file, bytes. Default 200 MiB. */
  maxFileBytes?: number;
  /** The clock for token lifetimes, ms. Default `Date.now`. */
  now?: () => number;
  /** Where to say what happened (deliveries). Default: nowhere. */
  log?: (line: string) => void;
}

export interface GeneratedClient {
  clientId: string;
  clientSecret: string;
}

/**
 * From the environment: `CLIENT_ID`/`CLIENT_SECRET` (one client is generated and returned when
 * unset, for the start banner), `TOKEN_EXPIRES_IN` (seconds), `PROCESSING_MS`.
 */
export function workflowConfigFromEnv(
  env: NodeJS.ProcessEnv,
  base: Pick<WorkflowConfig, 'staticTokens' | 'keys' | 'log'> = {},
): { config: WorkflowConfig; generated: GeneratedClient | undefined } {
  let generated: GeneratedClient | undefined;
  let clientId = env.CLIENT_ID;
  let clientSecret = env.CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    generated = { clientId: 'demo-client', clientSecret: randomBytes(18).toString('base64url') };
    ({ clientId, clientSecret } = generated);
  }
  const number = (name: string) => {
    const text = env[name];
    if (text === undefined || text === '') return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number.`);
    return value;
  };
  const config: WorkflowConfig = { ...base, clients: { [clientId]: clientSecret } };
  const expiresIn = number('TOKEN_EXPIRES_IN');
  if (expiresIn !== undefined) config.accessTokenSeconds = expiresIn;
  const processingMs = number('PROCESSING_MS');
  if (processingMs !== undefined) config.processingMs = processingMs;
  return { config, generated };
}
