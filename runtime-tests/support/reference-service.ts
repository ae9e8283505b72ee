import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  configFromEnv,
  type DocumentStore,
  newSharedKey,
  startService,
} from '@jwe-transport/reference-service';

/** What a client needs to reach the running reference service, and a key it must not have. */
export interface ServiceAccess {
  url: string;
  token: string;
  kid: string;
  key: string;
  /** A well-formed key that the service does not hold under `kid`. */
  wrongKey: string;
}

export interface ReferenceService extends ServiceAccess {
  store: DocumentStore;
  close(): Promise<void>;
}

/**
 * The reference service (@jwe-transport/reference-service) on 127.0.0.1, port 0, with a fresh key and token and
 * CORS for `corsOrigins`, configured through the environment variables its README documents.
 */
export async function startReferenceService(corsOrigins: readonly string[] = []): Promise<ReferenceService> {
  const docsDir = await mkdtemp(join(tmpdir(), 'jwe-runtime-docs-'));
  const access = {
    token: randomBytes(18).toString('base64url'),
    kid: 'runtime-kid',
    key: newSharedKey(),
    wrongKey: newSharedKey(),
  };
  const service = await startService(
    configFromEnv({
      JWE_KEYS: `${access.kid}:${access.key}`,
      ACCESS_TOKENS: access.token,
      PORT: '0',
      DOCS_DIR: docsDir,
      UPLOAD_LIMIT: '5mb',
      CORS_ORIGINS: corsOrigins.join(','),
    }),
  );
  return {
    ...access,
    url: service.url,
    store: service.store,
    close: async () => {
      await service.close();
      await rm(docsDir, { recursive: true, force: true });
    },
  };
}
