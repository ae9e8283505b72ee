import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corsForOrigins } from '../../examples/service/src/cors.js';
import { createServiceApp, DocumentStore, newSharedKey } from '../../examples/service/src/index.js';

/** What a client needs to reach the running reference service, and what it must not know. */
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
 * The reference service (examples/service) on 127.0.0.1, port 0, with fresh keys and token, and
 * CORS for `corsOrigins` in front of it.
 */
export async function startReferenceService(corsOrigins: readonly string[] = []): Promise<ReferenceService> {
  const docsDir = await mkdtemp(join(tmpdir(), 'jwe-runtime-docs-'));
  const access = {
    token: randomBytes(18).toString('base64url'),
    kid: 'runtime-kid',
    key: newSharedKey(),
    wrongKey: newSharedKey(),
  };
  const store = await new DocumentStore(docsDir).open();
  const app = createServiceApp(
    { keys: { [access.kid]: access.key }, tokens: [access.token], uploadLimit: '5mb' },
    store,
  );
  const cors = corsForOrigins(corsOrigins);
  const server = createServer((req, res) => cors(req, res, () => app(req, res)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    ...access,
    url: `http://127.0.0.1:${port}`,
    store,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(docsDir, { recursive: true, force: true });
    },
  };
}
