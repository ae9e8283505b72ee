import { createServer } from 'node:http';
import type { RunningServer } from '@jwe-transport/test-support/server-conformance/adapter';
import { listenLocal } from '@jwe-transport/test-support/server-conformance/listen';
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

export type Running = RunningServer;

/** Serves `app` on 127.0.0.1 with a port the OS picks. */
export const listen = (app: Express): Promise<Running> => listenLocal(createServer(app));

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

/** The files an upload route stored under `dest` (inside the private folder it makes there). */
export async function storedFiles(dest: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const { sep } = await import('node:path');
  return (await readdir(dest, { recursive: true })).filter((name) => name.includes(sep)).sort();
}
