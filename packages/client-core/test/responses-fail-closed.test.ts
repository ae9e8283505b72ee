import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, JweResponseError, keyringFor, wasDecrypted } from './helpers/imports.js';
import { GATEWAY_PAGE, type Service, SHARED_KEY, startService } from './helpers/service.js';

async function failure(call: Promise<unknown>): Promise<JweResponseError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(JweResponseError);
  return error as JweResponseError;
}

describe('responses to encrypted requests fail closed and say what arrived', () => {
  let service: Service;
  const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'kid-1' });
  const post = (query: string, init: RequestInit = {}) =>
    jweFetch(`${service.url}/registration?${query}`, { method: 'POST', body: '{"n":1}', ...init });

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it('decrypts an envelope answer into JSON and marks it decrypted', async () => {
    const response = await post('kid=svc-1');
    expect(response.status).toBe(200);
    expect(wasDecrypted(response)).toBe(true);
    expect(response.headers.get('x-jwe-decrypted')).toBe('svc-1');
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toMatchObject({ encrypted: true, json: { n: 1 } });
  });

  it('refuses a 2xx HTML page with ERR_JWE_RESPONSE_NOT_ENCRYPTED, naming what arrived', async () => {
    const error = await failure(post('reply=html'));
    expect(error.code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
    expect(error.status).toBe(200);
    expect(error.message).toContain(
      `text/html, no X-Encryption header, ${new TextEncoder().encode(GATEWAY_PAGE).length} bytes`,
    );
    expect(error.message).toContain(`POST ${service.url}/registration`);
    expect(error.message).not.toContain('reply=html');
    expect(error.message).not.toMatch(/Unexpected token|member/);
  });

  it('refuses a 2xx plain JSON answer, listing its members, unless plain answers are accepted', async () => {
    const error = await failure(post('reply=plain'));
    expect(error.code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
    expect(error.message).toMatch(
      /application\/json, no X-Encryption header, \d+ bytes; a JSON object with members path, encrypted/,
    );
    const lenient = createJweFetch({ key: SHARED_KEY, plainResponses: 'accept' });
    const response = await lenient(`${service.url}/x?reply=plain`, { method: 'POST', body: '{"n":2}' });
    expect(wasDecrypted(response)).toBe(false);
    expect(await response.json()).toMatchObject({ encrypted: true, json: { n: 2 } });
  });

  it("passes a gateway's plain 502 page through as the HTTP error it is", async () => {
    const response = await post('reply=html&status=502');
    expect(response.status).toBe(502);
    expect(response.ok).toBe(false);
    expect(wasDecrypted(response)).toBe(false);
    expect(await response.text()).toBe(GATEWAY_PAGE);
  });

  it('decrypts an encrypted error answer, keeping its status', async () => {
    const response = await post('status=422');
    expect(response.status).toBe(422);
    expect(wasDecrypted(response)).toBe(true);
    expect(await response.json()).toMatchObject({ json: { n: 1 } });
  });

  it('refuses an answer marked X-Encryption: JWE that is not an envelope', async () => {
    const error = await failure(post('reply=marked-garbage&status=400'));
    expect(error.code).toBe('ERR_JWE_INVALID');
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      'application/json, X-Encryption: JWE, 27 bytes; a JSON object with members error',
    );
  });

  it('refuses an envelope with a duplicate member, though the last copy of each would decrypt', async () => {
    const error = await failure(post('reply=duplicate-member'));
    expect(error.code).toBe('ERR_JWE_INVALID');
    expect(error.status).toBe(200);
    expect(error.message).toContain('member "ciphertext" more than once');
  });

  it('names both kids when the answer does not decrypt under our key', async () => {
    const error = await failure(post('reply=wrongkey&kid=svc-2027&status=409'));
    expect(error.code).toBe('ERR_JWE_DECRYPTION_FAILED');
    expect(error.status).toBe(409);
    expect(error.response.status).toBe(409);
    expect(error.message).toContain(
      'The response envelope has kid "svc-2027"; requests are sealed with kid "kid-1".',
    );
    expect(error.message).not.toContain(SHARED_KEY);
  });

  it("names the response's kid when no key is known for it (a rotation)", async () => {
    const rotating = createJweFetch({ key: keyringFor({ 'kid-1': SHARED_KEY }), kid: 'kid-1' });
    const error = await failure(rotating(`${service.url}/x?kid=svc-2027`, { method: 'POST', body: '{}' }));
    expect(error.code).toBe('ERR_KEY_UNKNOWN');
    expect(error.message).toContain('kid "svc-2027"');
  });

  it('names the kid and the length when a resolver returns a key of the wrong size', async () => {
    const resolver = (kid: string | undefined) => (kid === 'svc-short' ? new Uint8Array(16) : SHARED_KEY);
    const short = createJweFetch({ key: resolver, kid: 'kid-1' });
    const error = await failure(short(`${service.url}/x?kid=svc-short`, { method: 'POST', body: '{}' }));
    expect(error.code).toBe('ERR_KEY_INVALID');
    expect(error.message).toContain('16 raw key bytes, expected 32 for kid "svc-short"');
  });

  it('reads plain answers to unsealed requests as they are, and decrypts envelopes among them', async () => {
    const plain = await jweFetch(`${service.url}/status?reply=plain`);
    expect(wasDecrypted(plain)).toBe(false);
    expect(await plain.json()).toMatchObject({ encrypted: false });
    const sealed = await jweFetch(`${service.url}/status`);
    expect(wasDecrypted(sealed)).toBe(true);
    const strict = createJweFetch({ key: SHARED_KEY, responses: 'always' });
    expect((await failure(strict(`${service.url}/status?reply=plain`))).code).toBe(
      'ERR_JWE_RESPONSE_NOT_ENCRYPTED',
    );
  });

  it('hands responses over untouched when the call opts out', async () => {
    const response = await jweFetch(`${service.url}/x?reply=html`, {
      method: 'POST',
      body: 'words',
      jwe: false,
    });
    expect(service.arrivals.at(-1)).toMatchObject({ encrypted: false, raw: 'words' });
    expect(await response.text()).toBe(GATEWAY_PAGE);
  });
});
