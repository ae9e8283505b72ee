import { createHash, randomBytes } from 'node:crypto';
import { createJweFetch, type FetchImplementation, JweResponseError } from '@jwe-transport/client-core';
import { joseDecrypt, referenceKey } from '@jwe-transport/test-support/client/reference-jwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwcryptoDecrypt } from '../../../test-vectors/peers/index.mjs';
import { jwe } from '../src/index.js';
import { SHARED_KEY, startTestServer, type TestServer } from './helpers/test-server.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const key = referenceKey(SHARED_KEY);

describe('createJweFetch', () => {
  let server: TestServer;
  const at = (path: string) => `${server.url}${path}`;
  const last = () => server.requests.at(-1)!;
  const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'kid-7' });
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('encrypts a JSON body that jose and jwcrypto both decrypt, and decrypts the reply', async () => {
    const body = JSON.stringify({ aadhaar_number: '999941057058' });
    const response = await jweFetch(at('/abdm/na/v1/registration/aadhaar/init'), {
      method: 'POST',
      headers: json,
      body,
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(at('/abdm/na/v1/registration/aadhaar/init'));
    expect(await response.json()).toMatchObject({ encrypted: true, json: JSON.parse(body) });
    const { envelope, headers } = last();
    expect(headers['x-encryption']).toBe('JWE');
    expect(envelope?.kid).toBe('kid-7');
    expect(Buffer.from(await joseDecrypt(envelope, key)).toString()).toBe(body);
    const [peer] = await jwcryptoDecrypt(SHARED_KEY, [envelope!]);
    expect(peer?.ok && Buffer.from(peer.plaintext).toString()).toBe(body);
  });

  it('decrypts replies made by Python jwcrypto, as the service makes them', async () => {
    const response = await jweFetch(at('/from-jwcrypto?reply=jwcrypto'), {
      method: 'POST',
      headers: json,
      body: '{"p":1}',
    });
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toMatchObject({ path: '/from-jwcrypto', json: { p: 1 } });
  });

  it('encrypts a Request object passed as input', async () => {
    const request = new Request(at('/request-input'), { method: 'PUT', headers: json, body: '{"n":1}' });
    const response = await jweFetch(request);
    expect(last()).toMatchObject({ method: 'PUT', encrypted: true, json: { n: 1 } });
    expect(await response.json()).toMatchObject({ json: { n: 1 } });
  });

  it('uploads FormData files, small in one envelope and large as a stream', async () => {
    const streaming = createJweFetch({ key: SHARED_KEY, streamThreshold: 100_000 });
    for (const size of [1000, 2_000_000]) {
      const bytes = randomBytes(size);
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'scan.png');
      const response = await streaming(at('/mr/api/v2/docs?task=classification'), {
        method: 'POST',
        body: form,
      });
      expect(await response.json()).toMatchObject({ file: { size, sha256: sha256(bytes) } });
      expect(last()).toMatchObject({ streamed: size > 100_000, query: { task: 'classification' } });
    }
  });

  it('encrypts a file from a Request whose body is a FormData', async () => {
    const bytes = randomBytes(3000);
    const form = new FormData();
    form.set('file', new Blob([bytes]));
    const response = await jweFetch(
      new Request(at('/mr/api/v2/docs?task=srp'), { method: 'POST', body: form }),
    );
    expect(await response.json()).toMatchObject({ file: { size: bytes.length, sha256: sha256(bytes) } });
    expect(last()).toMatchObject({ encrypted: true, streamed: false, query: { task: 'srp' } });
  });

  it('keeps the status of decrypted error responses', async () => {
    const response = await jweFetch(at('/broken?status=500&reply=bare'), {
      method: 'POST',
      headers: json,
      body: '{}',
    });
    expect(response.status).toBe(500);
    expect(response.ok).toBe(false);
    expect(await response.json()).toMatchObject({ path: '/broken', json: {} });
  });

  it('rejects with JweResponseError when the reply does not authenticate', async () => {
    const failure = jweFetch(at('/wrong?reply=wrongkey'), { method: 'POST', headers: json, body: '{}' });
    await expect(failure).rejects.toBeInstanceOf(JweResponseError);
    await expect(failure).rejects.toMatchObject({ code: 'ERR_JWE_DECRYPTION_FAILED', status: 200 });
  });

  it('refuses bodies it cannot seal, and honours init.jwe', async () => {
    const before = server.requests.length;
    const text = jweFetch(at('/text'), {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    await expect(text).rejects.toMatchObject({ name: 'JweRequestError', code: 'ERR_JWE_BODY_UNSUPPORTED' });
    expect(server.requests.length).toBe(before);
    await jweFetch(at('/opt-out'), { method: 'POST', headers: json, body: '{"x":1}', jwe: false });
    expect(last()).toMatchObject({ encrypted: false, raw: '{"x":1}' });
    const envelope = await jweFetch(at('/raw'), {
      method: 'POST',
      headers: json,
      body: '{"y":2}',
      jwe: { response: 'never' },
    });
    expect(last().encrypted).toBe(true);
    expect(Object.keys(await envelope.json()).sort()).toEqual(['ciphertext', 'iv', 'protected', 'tag']);
  });

  it('refuses a malformed key when it is configured, not on the first request', () => {
    expect(() => createJweFetch({ key: 'too-short' })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_INVALID' }),
    );
    expect(() => jwe({ key: new Uint8Array(16) })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_INVALID' }),
    );
    expect(() => jwe({ key: SHARED_KEY, responses: 'sometimes' as never })).toThrow(TypeError);
  });

  it('calls a custom fetch implementation as (url, init)', async () => {
    const calls: { input: unknown; init: RequestInit | undefined }[] = [];
    const recording: FetchImplementation = (input, init) => {
      calls.push({ input, init });
      return fetch(input, init);
    };
    const wrapped = createJweFetch({ key: SHARED_KEY }, recording);
    // The caller's length is the plaintext's; the envelope is longer, so it must not go out.
    const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': '7' };
    const response = await wrapped(at('/custom'), { method: 'POST', headers, body: '{"z":3}' });
    expect(await response.json()).toMatchObject({ json: { z: 3 } });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toBe(at('/custom'));
    const sent = new Headers(calls[0]!.init?.headers);
    expect(sent.get('x-encryption')).toBe('JWE');
    expect(sent.get('content-type')).toBe('application/json');
    expect(sent.get('content-length')).toBeNull();
    expect(last()).toMatchObject({ encrypted: true, json: { z: 3 } });
  });
});
