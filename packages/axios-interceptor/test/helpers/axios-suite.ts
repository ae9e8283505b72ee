// useJwe's behaviour, run once per axios adapter that Node.js can use (http and fetch).

import { isJweRequestError, JweResponseError } from '@jwe-transport/client-core';
import {
  type JweTestServer,
  OTHER_KEY,
  SHARED_KEY,
  startJweServer,
} from '@jwe-transport/test-support/client/jwe-server';
import axios, { type AxiosInstance, isAxiosError } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJwe } from '../../src/index.node.js';

type Failure = Error & { code?: string; status?: number };

async function failure(promise: Promise<unknown>): Promise<Failure> {
  return promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (reason: unknown) => reason as Failure,
  );
}

export function axiosSuite(adapter: 'http' | 'fetch'): void {
  describe(`useJwe with axios's ${adapter} adapter`, () => {
    let server: JweTestServer;
    let other: JweTestServer;
    let api: AxiosInstance;
    const create = () => axios.create({ baseURL: server.url, adapter });

    beforeAll(async () => {
      server = await startJweServer();
      other = await startJweServer();
      api = create();
      useJwe(api, { key: SHARED_KEY, kid: 'client-1', origins: [server.origin] });
    });
    afterAll(async () => {
      await server.close();
      await other.close();
    });

    it('seals a JSON body and parses the decrypted answer', async () => {
      const response = await api.post('/v1/patients', { aadhaar_number: '123412341234' });
      expect(response.status).toBe(200);
      expect(response.headers['x-jwe-decrypted']).toBe('true');
      expect(response.headers['x-encryption']).toBeUndefined();
      expect(response.data).toMatchObject({ encrypted: true, json: { aadhaar_number: '123412341234' } });
      const wire = server.last();
      expect(wire.headers['x-encryption']).toBe('JWE');
      expect(wire.headers['content-type']).toBe('application/json');
      expect(wire.wire).not.toContain('123412341234');
      expect(JSON.parse(wire.wire!)).toMatchObject({ kid: 'client-1' });
    });

    // Sealing a file, retries and replays are cases of the client conformance suite
    // (conformance-*.test.ts).

    it("keeps the caller's responseType and transformResponse", async () => {
      const text = await api.post('/v1/x', { a: 1 }, { responseType: 'text' });
      expect(typeof text.data).toBe('string');
      expect(JSON.parse(text.data as string)).toMatchObject({ json: { a: 1 } });
      const binary = await api.post('/v1/x', { b: 2 }, { responseType: 'arraybuffer' });
      expect(JSON.parse(new TextDecoder().decode(binary.data as ArrayBuffer))).toMatchObject({
        json: { b: 2 },
      });
      const transformed = await api.post(
        '/v1/x',
        { c: 3 },
        {
          transformResponse: [(data: string) => `seen: ${data.length > 0}`],
        },
      );
      expect(transformed.data).toBe('seen: true');
    });

    it('opens an encrypted answer to a GET', async () => {
      const { data, headers } = await api.get('/v1/status', { params: { reply: 'envelope' } });
      expect(headers['x-jwe-decrypted']).toBe('true');
      expect(data).toMatchObject({ method: 'GET', encrypted: false });
    });

    it('puts the decrypted error body into AxiosError.response.data', async () => {
      const error = await failure(api.post('/v1/x?status=422', { bad: true }));
      expect(isAxiosError(error)).toBe(true);
      if (!isAxiosError(error)) return;
      expect(error.response?.status).toBe(422);
      expect(error.response?.data).toMatchObject({ json: { bad: true } });
      expect(error.response?.headers['x-jwe-decrypted']).toBe('true');
    });

    it('leaves a call alone with jwe: false', async () => {
      const { data } = await api.post('/v1/x', { open: 'text' }, { jwe: false });
      expect(data).toMatchObject({ encrypted: false });
      expect(server.last().wire).toBe('{"open":"text"}');
    });

    it('leaves other origins alone, both ways', async () => {
      const { data, headers } = await api.post(`${other.url}/x?reply=envelope`, { left: 'alone' });
      expect(other.last().wire).toBe('{"left":"alone"}');
      expect(Object.keys(data as object).sort()).toEqual(['ciphertext', 'iv', 'protected', 'tag']);
      expect(headers['x-jwe-decrypted']).toBeUndefined();
    });

    it('returns a function that removes both interceptors', async () => {
      const instance = create();
      const remove = useJwe(instance, { key: SHARED_KEY });
      expect((await instance.post('/v1/x', { n: 1 })).data).toMatchObject({ encrypted: true });
      remove();
      remove();
      const { data } = await instance.post('/v1/x?reply=envelope', { n: 2 });
      expect(server.last().encrypted).toBe(false);
      expect(server.last().wire).toBe('{"n":2}');
      // The answer is no longer opened either: the raw envelope comes back.
      expect(Object.keys(data as object)).toContain('ciphertext');
    });

    it('drops an X-JWE-Decrypted header that came from the server', async () => {
      const held = await api.get('/v1/x', { params: { reply: 'plain', forge: 1 } });
      expect(held.headers['x-jwe-decrypted']).toBeUndefined();
      expect(held.data).toMatchObject({ encrypted: false });
      const error = await failure(api.get('/v1/x', { params: { reply: 'html', status: 502, forge: 1 } }));
      expect(isAxiosError(error) && error.response?.status).toBe(502);
      expect(isAxiosError(error) && error.response?.headers['x-jwe-decrypted']).toBeUndefined();
    });

    describe('fails closed', () => {
      const refused = async (send: () => Promise<unknown>, code: string) => {
        const before = server.requests.length;
        const error = await failure(send());
        expect(isJweRequestError(error), error.message).toBe(true);
        expect(error.code).toBe(code);
        expect(server.requests.length).toBe(before);
        return error;
      };

      it('refuses a file in another field, several files, and bodies it cannot seal', async () => {
        const wrongField = new FormData();
        wrongField.set('document', new Blob(['secret']), 'a.txt');
        await refused(() => api.post('/v1/docs', wrongField), 'ERR_JWE_FILE_FIELD');
        const two = new FormData();
        two.append('file', new Blob(['one']), 'a.txt');
        two.append('file', new Blob(['two']), 'b.txt');
        await refused(() => api.post('/v1/docs', two), 'ERR_JWE_FORM_UNSUPPORTED');
        await refused(
          () => api.post('/v1/x', new URLSearchParams({ aadhaar: '1234' })),
          'ERR_JWE_BODY_UNSUPPORTED',
        );
        await refused(
          () => api.post('/v1/x', 'plain words', { headers: { 'content-type': 'text/plain' } }),
          'ERR_JWE_BODY_UNSUPPORTED',
        );
      });

      it('rejects a plain 2xx answer to a sealed request, naming what arrived', async () => {
        const error = await failure(api.post('/v1/x?reply=html', { a: 1 }));
        expect(error).toBeInstanceOf(JweResponseError);
        expect(error.code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
        expect(error.status).toBe(200);
        expect(error.message).toContain('text/html, no X-Encryption header, 37 bytes');
      });

      it('accepts a plain 2xx answer when told to', async () => {
        const accepting = create();
        useJwe(accepting, { key: SHARED_KEY, plainResponses: 'accept' });
        const { data } = await accepting.post('/v1/x?reply=plain', { a: 1 });
        expect(data).toMatchObject({ encrypted: true, json: { a: 1 } });
      });

      it("hands a gateway's plain error page over as an AxiosError", async () => {
        const error = await failure(api.post('/v1/x?reply=html&status=502', { a: 1 }));
        expect(isAxiosError(error)).toBe(true);
        if (!isAxiosError(error)) return;
        expect(error.response?.status).toBe(502);
        expect(error.response?.data).toContain('Bad gateway');
        expect(error.response?.headers['x-jwe-decrypted']).toBeUndefined();
      });

      it("names the response's kid when it does not decrypt", async () => {
        const error = await failure(api.post('/v1/x?reply=wrongkey&kid=svc-2025', {}));
        expect(error).toBeInstanceOf(JweResponseError);
        expect(error.code).toBe('ERR_JWE_DECRYPTION_FAILED');
        expect(error.message).toContain('kid "svc-2025"');
        expect(error.message).not.toContain(OTHER_KEY);
      });

      it('names the kid and the size of a wrong static key at setup', () => {
        expect(() => useJwe(create(), { key: new Uint8Array(16), kid: 'k-9' })).toThrow(
          /kid "k-9".*16 raw key bytes, expected 32/,
        );
      });
    });
  });
}
