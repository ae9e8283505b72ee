import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GeneratedClient, type WorkflowConfig, workflowConfigFromEnv } from './workflow/config.js';

export interface ServiceConfig {
  /** Shared keys by kid. */
  keys: Record<string, string>;
  /** Static bearer tokens accepted by the registration and document APIs besides issued ones. */
  tokens: string[];
  port: number;
  /** Where uploaded documents and audio are kept (0700). */
  docsDir: string;
  /** Largest document upload body, e.g. '500mb'. */
  uploadLimit: string;
  /** Browser origins allowed by CORS. Default none. */
  corsOrigins?: string[];
  /** The transcription workflow: clients, timing, webhook and upload rules (`storageDir` defaults to `<docsDir>/audio`). */
  workflow: Omit<WorkflowConfig, 'storageDir' | 'keys' | 'log'> & { storageDir?: string };
  /** What was generated because the environment did not say; printed once at start. */
  generated: { token?: string; key?: { kid: string; shared: string }; client?: GeneratedClient };
}

/** `JWE_KEYS="kid:sharedkey,kid2:sharedkey2"`; a key may itself contain ':' (only the first one splits). */
export function parseKeys(text: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const entry of text.split(',')) {
    const item = entry.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    if (colon <= 0 || colon === item.length - 1) {
      throw new Error(
        'JWE_KEYS must look like "kid:sharedkey,kid2:sharedkey2" (a kid, a colon, a 16-character key).',
      );
    }
    keys[item.slice(0, colon)] = item.slice(colon + 1);
  }
  return keys;
}

/** A random 16-character shared key (12 random bytes in base64url). */
export const newSharedKey = () => randomBytes(12).toString('base64url');

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export function configFromEnv(env: NodeJS.ProcessEnv): ServiceConfig {
  const generated: ServiceConfig['generated'] = {};
  let keys = env.JWE_KEYS ? parseKeys(env.JWE_KEYS) : {};
  if (Object.keys(keys).length === 0) {
    generated.key = { kid: 'demo', shared: newSharedKey() };
    keys = { demo: generated.key.shared };
  }
  let tokens = list(env.ACCESS_TOKENS);
  if (
    tokens.length === 0 &&
    env.CLIENT_ID === undefined &&
    env.CLIENTS === undefined &&
    env.CLIENTS_FILE === undefined
  ) {
    generated.token = randomBytes(24).toString('base64url');
    tokens = [generated.token];
  }
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error('PORT must be a port number (0 picks a free one).');
  const docsDir = env.DOCS_DIR || join(tmpdir(), 'jwe-transport-service-docs');
  const workflow = workflowConfigFromEnv(env, { storageDir: join(docsDir, 'audio') });
  if (workflow.generated) generated.client = workflow.generated;
  return {
    keys,
    tokens,
    port,
    docsDir,
    uploadLimit: env.UPLOAD_LIMIT || '500mb',
    corsOrigins: list(env.CORS_ORIGINS),
    workflow: workflow.config,
    generated,
  };
}
