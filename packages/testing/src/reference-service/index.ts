/**
 * `@jwe-transport/testing/reference-service`: this repository's reference service as a library,
 * for end-to-end tests in other repositories. Node only. It starts `@jwe-transport/reference-service`
 * (a dependency) with generated keys, clients and tokens; it listens on 127.0.0.1 only.
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServiceConfig, startService } from '@jwe-transport/reference-service';

export interface ReferenceServiceOptions {
  /** Shared keys by kid (16-character keys). Default: one random key under kid `'test'`. */
  keys?: Record<string, string>;
  /** Client credentials the login endpoint accepts, id to secret (8+ characters). Default: one random client. */
  clients?: Record<string, string>;
  /** Static bearer tokens for the registration and document APIs. Default: one random token. */
  tokens?: string[];
  /** Port on 127.0.0.1. Default 0 (a free one). */
  port?: number;
  /** Where documents and audio are kept. Default: a new temporary folder, removed by `close()`. */
  docsDir?: string;
  /** Largest document upload body, e.g. `'100mb'`. Default `'100mb'`. */
  uploadLimit?: string;
  /** Browser origins allowed by CORS. Default none. */
  corsOrigins?: string[];
  /** Hosts webhook subscriptions may name besides public https ones. Default `['127.0.0.1', 'localhost']`. */
  webhookAllowHosts?: string[];
  /** How long a transcription stays "processing" (202) after start, ms. Default 50. */
  processingMs?: number;
  /** Which documented `v2rx.completed` shape deliveries use. Default `'event'`. */
  notificationShape?: 'event' | 'payload';
  /** Access token lifetime, seconds. Default 1800. */
  accessTokenSeconds?: number;
  /** Receives one line per request and delivery (no keys, tokens or bodies). Default: nothing. */
  log?: (line: string) => void;
}

export interface ReferenceService {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The keys it serves with, by kid. */
  keys: Record<string, string>;
  /** The first kid and its key, for the common one-key case. */
  kid: string;
  key: string;
  /** The first client's credentials (login: `POST /connect-auth/v1/account/login`). */
  clientId: string;
  clientSecret: string;
  /** Every client it accepts, id to secret. */
  clients: Record<string, string>;
  /** A static bearer token for the registration and document APIs, and all of them. */
  token: string;
  tokens: string[];
  /** Stops listening, closes open connections and removes the temporary folder it made. */
  close(): Promise<void>;
}

/** 16 characters from 12 random bytes: the wire's shared-key form. */
const randomSharedKey = () => randomBytes(12).toString('base64url');
const randomSecret = () => randomBytes(18).toString('base64url');

function first<T>(record: Record<string, T>, what: string): [string, T] {
  const entry = Object.entries(record)[0];
  if (!entry) throw new TypeError(`startReferenceService: "${what}" must name at least one entry.`);
  return entry;
}

/**
 * Starts the reference service (the spec's registration and document APIs over JWE, and the
 * transcription workflow with auth, presigned uploads and signed webhooks) and resolves once it
 * listens. Everything not given is generated for this run and returned.
 */
export async function startReferenceService(
  options: ReferenceServiceOptions = {},
): Promise<ReferenceService> {
  const keys = { ...(options.keys ?? { test: randomSharedKey() }) };
  const clients = { ...(options.clients ?? { 'test-client': randomSecret() }) };
  const tokens = [...(options.tokens ?? [randomSecret()])];
  const [kid, key] = first(keys, 'keys');
  const [clientId, clientSecret] = first(clients, 'clients');
  if (tokens.length === 0)
    throw new TypeError('startReferenceService: "tokens" must hold at least one token.');
  const ownDir = options.docsDir === undefined;
  const docsDir = options.docsDir ?? (await mkdtemp(join(tmpdir(), 'jwe-reference-service-')));
  const config: ServiceConfig = {
    keys,
    tokens,
    port: options.port ?? 0,
    docsDir,
    uploadLimit: options.uploadLimit ?? '100mb',
    corsOrigins: options.corsOrigins ?? [],
    workflow: {
      clients,
      webhookAllowHosts: options.webhookAllowHosts ?? ['127.0.0.1', 'localhost'],
      processingMs: options.processingMs ?? 50,
      ...(options.notificationShape ? { notificationShape: options.notificationShape } : {}),
      ...(options.accessTokenSeconds !== undefined ? { accessTokenSeconds: options.accessTokenSeconds } : {}),
    },
    generated: {},
  };
  let running: Awaited<ReturnType<typeof startService>>;
  try {
    running = await startService(config, options.log ? { log: options.log } : {});
  } catch (error) {
    if (ownDir) await rm(docsDir, { recursive: true, force: true });
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    url: running.url,
    keys,
    kid,
    key,
    clientId,
    clientSecret,
    clients,
    token: tokens[0]!,
    tokens,
    close() {
      closed ??= running.close().finally(async () => {
        if (ownDir) await rm(docsDir, { recursive: true, force: true });
      });
      return closed;
    },
  };
}
