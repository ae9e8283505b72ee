import { decryptJson } from '@jwe-transport/codec';
import { jweInterceptor } from '@jwe-transport/undici-interceptor';
import { HttpResponse, http } from 'msw';
import { FormData, request } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createJweHttp } from '../src/index.js';
import { createJweMockAgent } from '../src/undici/index.js';

/*
 * undici's request() through a composed dispatcher is invisible to MSW: the same handlers answer
 * it through createJweMockAgent, with the jwe interceptor composed on top as an application would.
 */

const KID = 'kit-2026';
const KEY = 'sixteen-chars-ky';
const WRONG_KEY = 'another-16-chars';
const API = 'https://api.example.test';

const jweHttp = createJweHttp({ keys: { [KID]: KEY } });
const seen: unknown[] = [];
const agent = createJweMockAgent([
  jweHttp.post(`${API}/v1/echo`, async ({ request, jwe }) => {
    const body = await request.json();
    seen.push({ body, jwe });
    return HttpResponse.json({ echo: body }, { status: 201 });
  }),
  jweHttp.post(`${API}/v1/invalid`, () =>
    HttpResponse.json({ error: { code: 'ERR_AADHAAR_INVALID' } }, { status: 422 }),
  ),
  jweHttp.post(`${API}/mr/api/v2/docs`, async ({ request, jwe }) => {
    const bytes = new Uint8Array(await request.arrayBuffer());
    seen.push({
      jwe,
      type: request.headers.get('content-type'),
      size: bytes.length,
      first: bytes[0],
      last: bytes.at(-1),
    });
    return HttpResponse.json({ size: bytes.length });
  }),
  http.post(`${API}/v1/plain`, () => HttpResponse.json({ id: 'p-1' })),
]);
const api = agent.compose(jweInterceptor({ key: KEY, kid: KID, origins: [API] }));

afterEach(() => {
  seen.length = 0;
  agent.resetHandlers();
});
afterAll(() => agent.close());

const postJson = (url: string, value: unknown, dispatcher = api) =>
  request(url, {
    dispatcher,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });

describe('undici request() with jweInterceptor on createJweMockAgent', () => {
  it('seals JSON: the resolver reads the plaintext; the sealed answer is opened', async () => {
    const { statusCode, body } = await postJson(`${API}/v1/echo`, { aadhaar_number: '999941057058' });
    expect(statusCode).toBe(201);
    expect(await body.json()).toEqual({ echo: { aadhaar_number: '999941057058' } });
    expect(seen).toEqual([
      { body: { aadhaar_number: '999941057058' }, jwe: { encrypted: true, kid: KID, file: false } },
    ]);
  });

  it('answers on the wire sealed under the request kid (read without the interceptor)', async () => {
    const { sealedEnvelope } = await import('../src/index.js');
    const envelope = await sealedEnvelope({ secret: 'value-123' }, { key: KEY, kid: KID });
    const { statusCode, headers, body } = await request(`${API}/v1/echo`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body: JSON.stringify(envelope),
    });
    expect(statusCode).toBe(201);
    expect(headers['x-encryption']).toBe('JWE');
    const text = await body.text();
    expect(text).not.toContain('value-123');
    expect((JSON.parse(text) as { kid: string }).kid).toBe(KID);
    expect(await decryptJson(text, KEY)).toEqual({ echo: { secret: 'value-123' } });
  });

  it('opens a sealed error answer', async () => {
    const { statusCode, body } = await postJson(`${API}/v1/invalid`, { aadhaar_number: '1' });
    expect(statusCode).toBe(422);
    expect(await body.json()).toEqual({ error: { code: 'ERR_AADHAAR_INVALID' } });
  });

  it('fails closed on a plain 2xx answer to a sealed request', async () => {
    await expect(postJson(`${API}/v1/plain`, { a: 1 })).rejects.toMatchObject({
      code: 'ERR_JWE_RESPONSE_NOT_ENCRYPTED',
    });
  });

  it('delivers a sealed file upload (FormData) to the resolver as bytes', async () => {
    const bytes = new Uint8Array(50_000).map((_, i) => (i % 251) + 1);
    const form = new FormData();
    form.set('file', new Blob([bytes]), 'scan.pdf');
    const { statusCode, body } = await request(`${API}/mr/api/v2/docs`, {
      dispatcher: api,
      method: 'POST',
      body: form,
    });
    expect(statusCode).toBe(200);
    expect(await body.json()).toEqual({ size: bytes.length });
    expect(seen).toEqual([
      {
        jwe: { encrypted: true, kid: KID, file: true },
        type: 'application/octet-stream',
        size: bytes.length,
        first: bytes[0],
        last: bytes.at(-1),
      },
    ]);
  });

  it('takes a file above the stream threshold (9 MiB, sealed as a stream) as bytes too', async () => {
    const bytes = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i % 253) + 1);
    const form = new FormData();
    form.set('file', new Blob([bytes]), 'big.bin');
    const { statusCode, body } = await request(`${API}/mr/api/v2/docs`, {
      dispatcher: api,
      method: 'POST',
      body: form,
    });
    expect(statusCode).toBe(200);
    expect(await body.json()).toEqual({ size: bytes.length });
    expect(seen).toMatchObject([{ jwe: { file: true }, size: bytes.length, first: 1, last: bytes.at(-1) }]);
  });

  it('refuses a wrong key with 400 ERR_JWE_DECRYPTION_FAILED before the resolver', async () => {
    const wrong = agent.compose(jweInterceptor({ key: WRONG_KEY, kid: KID, origins: [API] }));
    const { statusCode, body } = await postJson(`${API}/v1/echo`, { a: 1 }, wrong);
    expect(statusCode).toBe(400);
    expect(await body.json()).toMatchObject({
      error: { type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' },
    });
    expect(seen).toEqual([]);
  });

  it('takes handlers added with use() first, and refuses requests nothing answers', async () => {
    agent.use(jweHttp.post(`${API}/v1/echo`, () => HttpResponse.json({ overridden: true })));
    const { body } = await postJson(`${API}/v1/echo`, { a: 1 });
    expect(await body.json()).toEqual({ overridden: true });
    await expect(postJson(`${API}/v1/nothing-here`, { a: 1 })).rejects.toMatchObject({
      code: 'UND_MOCK_ERR_MOCK_NOT_MATCHED',
    });
  });

  it("falls back to the agent's own interceptors for requests no handler answers", async () => {
    agent.get(API).intercept({ path: '/v1/own', method: 'GET' }).reply(200, 'own interceptor');
    const { body } = await request(`${API}/v1/own`, { dispatcher: agent });
    expect(await body.text()).toBe('own interceptor');
    agent.assertNoPendingInterceptors();
  });
});
