import { decryptDetailed, encryptJson } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type RuntimeServer, startRuntimeServer } from '../support/runtimes.js';

const KEYS = { 'kid-current': 'h0n0-curr3nt-k3y', 'kid-previous': 'h0n0-pr3v10us-k3' } as const;
const WRONG_KEY = 'n0t-th3-s3rv3r-k';
const PATIENT = { aadhaar_number: '999941057058', name: 'Asha Rao', tags: ['कार्ड', 'ü'] };

function post(server: RuntimeServer, path: string, body: string, encrypted: boolean) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(encrypted ? { 'x-encryption': 'JWE' } : {}) },
    body,
  });
}

/** Seals `value` with the codec under Node, as a client would, and posts it. */
async function postSealed(server: RuntimeServer, path: string, value: unknown, kid: string, key: string) {
  return post(server, path, JSON.stringify(await encryptJson(value, key, { kid })), true);
}

/** An answer that must be sealed: its header says so, and it opens under `key` with `kid`. */
async function openSealed(response: Response, kid: string, key: string) {
  expect(response.headers.get('x-encryption')).toBe('JWE');
  const envelope = JSON.parse(await response.text()) as Record<string, unknown>;
  expect(Object.keys(envelope).sort()).toEqual(['ciphertext', 'iv', 'kid', 'protected', 'tag']);
  const opened = await decryptDetailed(envelope as never, key);
  expect(opened.kid).toBe(kid);
  return JSON.parse(new TextDecoder().decode(opened.plaintext)) as Record<string, unknown>;
}

describe.each(RUNTIMES)('Hono with @jwe-transport/hono-middleware under %s, over real HTTP', (runtime) => {
  let server: RuntimeServer;
  beforeAll(async () => {
    server = await startRuntimeServer(runtime, 'hono/scripts/hono-app.mjs', { args: [JSON.stringify(KEYS)] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('hands the handler the plaintext and seals its answer under the request kid', async () => {
    for (const [kid, key] of Object.entries(KEYS)) {
      const response = await postSealed(server, '/echo', PATIENT, kid, key);
      expect(response.status).toBe(200);
      expect(await openSealed(response, kid, key)).toEqual({
        runtime,
        received: PATIENT,
        encrypted: true,
        kid,
      });
    }
  });

  it("seals the handler's error answer too", async () => {
    const response = await postSealed(server, '/reject', PATIENT, 'kid-current', KEYS['kid-current']);
    expect(response.status).toBe(422);
    expect(await openSealed(response, 'kid-current', KEYS['kid-current'])).toEqual({
      error: { type: 'validation.failed', runtime },
    });
  });

  it('refuses an envelope sealed under the wrong key, in plain JSON, before the handler runs', async () => {
    const response = await postSealed(server, '/echo', PATIENT, 'kid-current', WRONG_KEY);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toMatchObject({
      error: { type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' },
    });
  });

  it('lets a plain request through and answers it in plain', async () => {
    const response = await post(server, '/echo', JSON.stringify(PATIENT), false);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toEqual({ runtime, received: PATIENT, encrypted: false, kid: null });
  });
});
