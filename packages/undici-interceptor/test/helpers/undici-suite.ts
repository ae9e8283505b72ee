// The undici interceptor's behaviour, run once per undici major (7 on every Node, 8 where Node allows).

import { JweResponseError } from '@jwe-transport/client-core';
import {
  type JweTestServer,
  OTHER_KEY,
  SHARED_KEY,
  startJweServer,
} from '@jwe-transport/test-support/client/jwe-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JweInterceptorOptions, jweInterceptor } from '../../src/index.js';

export type Undici = typeof import('undici');
type UndiciForm = import('undici').FormData;

/** The global FormData, which undici.request takes, typed as undici's own. */
const asUndiciForm = (form: FormData | UndiciForm) => form as UndiciForm;

/** undici.fetch and Node's fetch report a dispatcher's error as a TypeError whose cause is it. */
async function fetchFailure(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  const error = await promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (reason: unknown) => reason as Error,
  );
  expect(error).toBeInstanceOf(TypeError);
  return error.cause as Error & { code?: string };
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  return promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (reason: unknown) => reason as Error & { code?: string },
  );
}

export function undiciSuite(label: string, undici: Undici): void {
  describe(`jweInterceptor with ${label}`, () => {
    let server: JweTestServer;
    let other: JweTestServer;
    let agent: import('undici').Agent;
    let dispatcher: import('undici').Dispatcher;
    const setup = (options: Partial<JweInterceptorOptions> = {}) =>
      agent.compose(
        jweInterceptor({ key: SHARED_KEY, kid: 'client-1', origins: [server.origin], ...options }),
      );

    beforeAll(async () => {
      server = await startJweServer();
      other = await startJweServer();
      agent = new undici.Agent();
      dispatcher = setup();
    });
    afterAll(async () => {
      await agent.close();
      await server.close();
      await other.close();
    });

    it('seals a JSON body and opens the answer with undici.request', async () => {
      const { statusCode, headers, body } = await undici.request(`${server.url}/v1/patients`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ aadhaar_number: '123412341234' }),
      });
      const answer = (await body.json()) as { json: unknown; encrypted: boolean };
      expect(statusCode).toBe(200);
      expect(headers['x-jwe-decrypted']).toBe('true');
      expect(headers['x-encryption']).toBeUndefined();
      expect(answer).toMatchObject({ encrypted: true, json: { aadhaar_number: '123412341234' } });
      const wire = server.last();
      expect(wire.headers['x-encryption']).toBe('JWE');
      expect(wire.wire).not.toContain('123412341234');
      expect(JSON.parse(wire.wire!)).toMatchObject({ kid: 'client-1' });
    });

    it('seals and opens with undici.fetch', async () => {
      const response = await undici.fetch(`${server.url}/v1/patients`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Asha' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-jwe-decrypted')).toBe('true');
      expect(await response.json()).toMatchObject({ encrypted: true, json: { name: 'Asha' } });
      expect(server.last().wire).not.toContain('Asha');
    });

    it("works under Node's global fetch through setGlobalDispatcher", async () => {
      const previous = undici.getGlobalDispatcher();
      undici.setGlobalDispatcher(dispatcher);
      try {
        const response = await fetch(`${server.url}/v1/global`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ via: 'global fetch' }),
        });
        expect(await response.json()).toMatchObject({ encrypted: true, json: { via: 'global fetch' } });
        expect(server.last().headers['x-encryption']).toBe('JWE');
        // Every other origin the process talks to is left exactly as it was.
        const plain = await fetch(`${other.url}/elsewhere`, { method: 'POST', body: '{"left":"alone"}' });
        expect(await plain.json()).toMatchObject({ encrypted: false });
        expect(other.last().wire).toBe('{"left":"alone"}');
      } finally {
        undici.setGlobalDispatcher(previous);
      }
    });

    it('passes requests to other origins through untouched, both ways', async () => {
      const { body, headers } = await undici.request(`${other.url}/x?reply=envelope`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'not json, and not ours to seal',
      });
      const raw = (await body.json()) as Record<string, unknown>;
      expect(other.last().wire).toBe('not json, and not ours to seal');
      expect(other.last().headers['x-encryption']).toBeUndefined();
      // An envelope from another origin is handed over as it came.
      expect(Object.keys(raw).sort()).toEqual(['ciphertext', 'iv', 'protected', 'tag']);
      expect(headers['x-jwe-decrypted']).toBeUndefined();
    });

    // Sealing a file, opening a sealed error answer, and retries through interceptors.retry are
    // cases of the client conformance suite (conformance-undici*.test.ts).

    it('opens an encrypted answer to a GET', async () => {
      const response = await undici.fetch(`${server.url}/v1/status?reply=envelope`, { dispatcher });
      expect(response.headers.get('x-jwe-decrypted')).toBe('true');
      expect(await response.json()).toMatchObject({ method: 'GET', encrypted: false });
    });

    it('drops an X-JWE-Decrypted header that came from the server', async () => {
      const held = await undici.request(`${server.url}/v1/x?reply=plain&forge=1`, { dispatcher });
      expect(held.headers['x-jwe-decrypted']).toBeUndefined();
      expect(await held.body.json()).toMatchObject({ encrypted: false });
      const passed = await undici.fetch(`${server.url}/v1/x?reply=html&status=502&forge=1`, { dispatcher });
      expect(passed.status).toBe(502);
      expect(passed.headers.get('x-jwe-decrypted')).toBeNull();
      await passed.text();
      // Out of scope, nothing is judged or changed.
      const elsewhere = await undici.request(`${other.url}/x?reply=plain&forge=1`, { dispatcher });
      expect(elsewhere.headers['x-jwe-decrypted']).toBe('true');
      await elsewhere.body.text();
    });

    describe('fails closed', () => {
      const refused = async (send: () => Promise<unknown>, code: string, fetchStyle: boolean) => {
        const before = server.requests.length;
        const error = fetchStyle ? await fetchFailure(send()) : await failure(send());
        expect(error.code, error.message).toBe(code);
        expect(server.requests.length).toBe(before);
        return error;
      };

      it('refuses a file in a field other than fileField, before sending anything', async () => {
        const url = `${server.url}/v1/docs`;
        const form = new FormData();
        form.set('document', new Blob(['secret']), 'a.txt');
        const undiciForm = new undici.FormData();
        undiciForm.set('document', new Blob(['secret']), 'a.txt');
        await refused(
          () => undici.request(url, { dispatcher, method: 'POST', body: asUndiciForm(form) }),
          'ERR_JWE_FILE_FIELD',
          false,
        );
        await refused(
          () => undici.fetch(url, { dispatcher, method: 'POST', body: undiciForm }),
          'ERR_JWE_FILE_FIELD',
          true,
        );
      });

      it('refuses several files', async () => {
        const form = new FormData();
        const undiciForm = new undici.FormData();
        for (const each of [form, undiciForm]) {
          each.append('file', new Blob(['one']), 'a.txt');
          each.append('file', new Blob(['two']), 'b.txt');
        }
        const url = `${server.url}/v1/docs`;
        const error = await refused(
          () => undici.request(url, { dispatcher, method: 'POST', body: asUndiciForm(form) }),
          'ERR_JWE_FORM_UNSUPPORTED',
          false,
        );
        expect(error.message).toContain('2 files');
        await refused(
          () => undici.fetch(url, { dispatcher, method: 'POST', body: undiciForm }),
          'ERR_JWE_FORM_UNSUPPORTED',
          true,
        );
      });

      it('refuses a body it cannot seal', async () => {
        const url = `${server.url}/v1/x`;
        await refused(
          () =>
            undici.request(url, {
              dispatcher,
              method: 'POST',
              body: 'plain words',
              headers: { 'content-type': 'text/plain' },
            }),
          'ERR_JWE_BODY_UNSUPPORTED',
          false,
        );
        await refused(
          () =>
            undici.fetch(url, { dispatcher, method: 'POST', body: new URLSearchParams({ aadhaar: '1234' }) }),
          'ERR_JWE_BODY_UNSUPPORTED',
          true,
        );
      });

      it('rejects a plain 2xx answer to a sealed request, naming what arrived', async () => {
        const send = () =>
          undici.request(`${server.url}/v1/x?reply=html`, {
            dispatcher,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
        const error = await failure(send());
        expect(error).toBeInstanceOf(JweResponseError);
        expect(error.code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
        expect(error.status).toBe(200);
        expect(error.message).toContain('text/html, no X-Encryption header, 37 bytes');
        const viaFetch = await fetchFailure(
          undici.fetch(`${server.url}/v1/x?reply=plain`, {
            dispatcher,
            method: 'POST',
            body: '{"a":1}',
            headers: { 'content-type': 'application/json' },
          }),
        );
        expect(viaFetch.code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
      });

      it('accepts a plain 2xx answer when told to', async () => {
        const accepting = setup({ plainResponses: 'accept' });
        const { statusCode, body } = await undici.request(`${server.url}/v1/x?reply=html`, {
          dispatcher: accepting,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(statusCode).toBe(200);
        expect(await body.text()).toContain('Bad gateway');
      });

      it("hands a gateway's plain error page over as an HTTP error", async () => {
        const response = await undici.fetch(`${server.url}/v1/x?reply=html&status=502`, {
          dispatcher,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status).toBe(502);
        expect(response.headers.get('x-jwe-decrypted')).toBeNull();
        expect(await response.text()).toContain('Bad gateway');
      });

      it('rejects a marked answer that is not an envelope', async () => {
        const error = await failure(
          undici.request(`${server.url}/v1/x?reply=marked-garbage`, { dispatcher, method: 'GET' }),
        );
        expect(error.code).toBe('ERR_JWE_INVALID');
      });

      it("names the response's kid when it does not decrypt", async () => {
        const error = await failure(
          undici.request(`${server.url}/v1/x?reply=wrongkey&kid=svc-2025`, {
            dispatcher,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          }),
        );
        expect(error.code).toBe('ERR_JWE_DECRYPTION_FAILED');
        expect(error.message).toContain('kid "svc-2025"');
        expect(error.message).toContain('kid "client-1"');
        expect(error.message).not.toContain(OTHER_KEY);
        expect(error.message).not.toContain(SHARED_KEY);
      });

      it('names the kid and the size of a wrong static key at setup', () => {
        expect(() => jweInterceptor({ key: 'short', kid: 'k-7', origins: [server.origin] })).toThrow(
          /kid "k-7".*5 bytes of UTF-8, expected 16/,
        );
      });

      it('requires origins', () => {
        expect(() => jweInterceptor({ key: SHARED_KEY } as JweInterceptorOptions)).toThrow(
          /"origins" option is required/,
        );
      });
    });
  });
}
