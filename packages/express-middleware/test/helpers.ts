import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import express from 'express';
import express4 from 'express4';

/** Both Express majors; every HTTP test runs against each. */
export const EXPRESS_VERSIONS = [
  { name: 'Express 5', create: () => express() as Express, json: express.json },
  { name: 'Express 4', create: () => express4() as Express, json: express4.json },
] as const;

export const KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' } as const;
export const KEY_A = KEYS['kid-a'];
export const KEY_B = KEYS['kid-b'];

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with a port the OS picks. */
export function listen(app: Express): Promise<Running> {
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

// The jose-made envelopes and the encrypted POST are the conformance suite's, shared by every adapter.
export {
  joseOpenJson as joseDecryptJson,
  joseSeal as joseEncrypt,
  postEncrypted,
  rawKey,
} from '@jwe-transport/test-support/server-conformance/wire';

export function postJson(url: string, value: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  });
}
