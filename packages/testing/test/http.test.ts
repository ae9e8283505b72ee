import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptJson } from '@jwe-transport/codec';
import { HttpResponse, http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJweHttp, sealedEnvelope } from '../src/index.js';

/*
 * The handlers on their own, driven with Node's fetch and envelopes made by the builders: what a
 * resolver sees, how answers leave, and the 4xx answers for requests that do not open, with the
 * same status, type and code as our servers (server-core's error body).
 */

const KID = 'kit-2026';
const KEY = 'sixteen-chars-ky';
const API = 'https://api.example.test';

const jweHttp = createJweHttp({ keys: { [KID]: KEY } });
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const sealedInit = async (
  value: unknown,
  options: { key?: string; kid?: string } = {},
): Promise<RequestInit> => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
  body: JSON.stringify(await sealedEnvelope(value, { key: options.key ?? KEY, kid: options.kid ?? KID })),
});

async function errorOf(response: Response) {
  return {
    status: response.status,
    encryption: response.headers.get('x-encryption'),
    body: await response.json(),
  };
}

describe('createJweHttp: requests that do not open get our servers’ answer', () => {
  let called = 0;
  afterEach(() => {
    called = 0;
  });
  const handler = () =>
    jweHttp.post(`${API}/v1/x`, () => {
      called++;
      return HttpResponse.json({ ok: true });
    });

  it('an unknown kid: 400 jwe.kid.unknown ERR_KEY_UNKNOWN', async () => {
    server.use(handler());
    const response = await fetch(`${API}/v1/x`, await sealedInit({ a: 1 }, { kid: 'nobody' }));
    expect(await errorOf(response)).toMatchObject({
      status: 400,
      encryption: null,
      body: { error: { type: 'jwe.kid.unknown', code: 'ERR_KEY_UNKNOWN' } },
    });
    expect(called).toBe(0);
  });

  it('a tampered ciphertext: 400 jwe.decrypt.failed ERR_JWE_DECRYPTION_FAILED', async () => {
    server.use(handler());
    const envelope = await sealedEnvelope({ amount: 100 }, { key: KEY, kid: KID });
    const flipped = envelope.ciphertext.startsWith('A')
      ? `B${envelope.ciphertext.slice(1)}`
      : `A${envelope.ciphertext.slice(1)}`;
    const response = await fetch(`${API}/v1/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body: JSON.stringify({ ...envelope, ciphertext: flipped }),
    });
    expect(await errorOf(response)).toMatchObject({
      status: 400,
      body: { error: { type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' } },
    });
    expect(called).toBe(0);
  });

  it('a body that is not an envelope: 400 jwe.envelope.invalid ERR_JWE_INVALID', async () => {
    server.use(handler());
    const response = await fetch(`${API}/v1/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body: JSON.stringify({ amount: 100 }),
    });
    expect(await errorOf(response)).toMatchObject({
      status: 400,
      body: { error: { type: 'jwe.envelope.invalid', code: 'ERR_JWE_INVALID' } },
    });
  });

  it('an unsupported X-Encryption value: 400 jwe.header.invalid', async () => {
    server.use(handler());
    const response = await fetch(`${API}/v1/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'AES' },
      body: '{}',
    });
    expect(await errorOf(response)).toMatchObject({
      status: 400,
      body: { error: { type: 'jwe.header.invalid', code: 'ERR_JWE_HEADER_INVALID' } },
    });
  });

  it('a sealed body that is not strict JSON: 400 jwe.plaintext.invalid, answered sealed (it authenticated)', async () => {
    server.use(handler());
    const response = await fetch(`${API}/v1/x`, await sealedInit('{"a":1,"a":2}'));
    expect(response.status).toBe(400);
    expect(response.headers.get('x-encryption')).toBe('JWE');
    expect(await decryptJson(await response.text(), KEY)).toMatchObject({
      error: { type: 'jwe.plaintext.invalid', code: 'ERR_JWE_PLAINTEXT_INVALID' },
    });
  });

  it('requireEncryption refuses a plain body with 415 jwe.required', async () => {
    const strict = createJweHttp({ keys: { [KID]: KEY }, requireEncryption: true });
    server.use(strict.post(`${API}/v1/x`, () => HttpResponse.json({ ok: true })));
    const response = await fetch(`${API}/v1/x`, { method: 'POST', body: '{"a":1}' });
    expect(await errorOf(response)).toMatchObject({
      status: 415,
      body: { error: { type: 'jwe.required', code: 'ERR_JWE_REQUIRED' } },
    });
  });
});

describe('createJweHttp: resolvers and their answers', () => {
  it('hands a plain request over untouched and leaves its answer plain, as MSW does', async () => {
    server.use(
      jweHttp.post(`${API}/v1/plain`, async ({ request, jwe }) =>
        HttpResponse.json({ got: await request.json(), jwe }),
      ),
    );
    const response = await fetch(`${API}/v1/plain`, { method: 'POST', body: '{"a":1}' });
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toEqual({ got: { a: 1 }, jwe: { encrypted: false, file: false } });
  });

  it('seals answers of every JSON status and leaves non-JSON answers as they are', async () => {
    server.use(
      jweHttp.put(`${API}/v1/json/:status`, ({ params }) =>
        HttpResponse.json({ status: Number(params.status) }, { status: Number(params.status) }),
      ),
      jweHttp.patch(`${API}/v1/text`, () => HttpResponse.text('not json')),
    );
    for (const status of [200, 201, 404, 409, 500]) {
      const response = await fetch(`${API}/v1/json/${status}`, {
        ...(await sealedInit({ a: 1 })),
        method: 'PUT',
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('x-encryption')).toBe('JWE');
      expect(await decryptJson(await response.text(), KEY)).toEqual({ status });
    }
    const text = await fetch(`${API}/v1/text`, { ...(await sealedInit({ a: 1 })), method: 'PATCH' });
    expect(text.headers.get('x-encryption')).toBeNull();
    expect(await text.text()).toBe('not json');
  });

  it('seals a thrown HttpResponse and an error that names its status, like our servers', async () => {
    server.use(
      jweHttp.delete(`${API}/v1/thrown-response`, () => {
        throw HttpResponse.json({ error: { code: 'ERR_GONE' } }, { status: 410 });
      }),
      jweHttp.all(`${API}/v1/thrown-error`, () => {
        throw Object.assign(new Error('You may not do that.'), {
          status: 403,
          expose: true,
          type: 'forbidden',
        });
      }),
    );
    const gone = await fetch(`${API}/v1/thrown-response`, {
      ...(await sealedInit({ a: 1 })),
      method: 'DELETE',
    });
    expect(gone.status).toBe(410);
    expect(await decryptJson(await gone.text(), KEY)).toEqual({ error: { code: 'ERR_GONE' } });
    const forbidden = await fetch(`${API}/v1/thrown-error`, await sealedInit({ a: 1 }));
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('x-encryption')).toBe('JWE');
    expect(await decryptJson(await forbidden.text(), KEY)).toEqual({
      error: { type: 'forbidden', message: 'You may not do that.' },
    });
  });

  it('falls through to the next handler with the request body still readable', async () => {
    server.use(
      jweHttp.post(`${API}/v1/chain`, () => undefined),
      http.post(`${API}/v1/chain`, async ({ request }) =>
        HttpResponse.json({ sawEnvelope: 'ciphertext' in ((await request.json()) as object) }),
      ),
    );
    const response = await fetch(`${API}/v1/chain`, await sealedInit({ a: 1 }));
    expect(await response.json()).toEqual({ sawEnvelope: true });
  });

  it('leaves passthrough() to MSW: the request reaches the real server', async () => {
    const real = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('from the real server');
    });
    await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(real.address() as AddressInfo).port}/v1/pass`;
    try {
      server.use(jweHttp.get(url, () => passthrough()));
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('from the real server');
    } finally {
      await new Promise((resolve) => real.close(resolve));
    }
  });

  it('refuses a generator resolver instead of answering something unsealed', async () => {
    server.use(
      jweHttp.post(`${API}/v1/gen`, function* () {
        yield HttpResponse.json({ n: 1 });
      } as never),
    );
    const response = await fetch(`${API}/v1/gen`, await sealedInit({ a: 1 }));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('generator resolvers are not supported');
  });

  it('refuses bad options at creation, as the servers do', () => {
    expect(() => createJweHttp({ keys: {} })).toThrow(/non-empty/);
    expect(() => createJweHttp({ keys: { k: 'short' } })).toThrow(/kid 'k'/);
  });
});
