// Fail-closed behaviour through ky, for ky 1.x and 2.x: what never goes out plain, what comes
// back as an error, and a 200 MiB upload that the server refuses before reading it.

import { JweResponseError, wasDecrypted } from '@jwe-transport/client-core';
import { type LargeFile, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwe } from '../../src/index.js';
import type { KyLike } from './ky-suite.js';
import { GATEWAY_PAGE, SHARED_KEY, startTestServer, type TestServer } from './test-server.js';

/** The body of an HTTPError: ky 2.x has read it into `error.data`; ky 1.x leaves it in the response. */
async function errorBody(error: Record<string, unknown>, as: 'json' | 'text'): Promise<unknown> {
  if ('data' in error) return error.data;
  return (error.response as Response)[as]();
}

async function caught(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected the call to fail');
  return outcome as Error & Record<string, unknown>;
}

export function kyFailClosedSuite(label: string, ky: KyLike): void {
  describe(`jwe() with ${label} fails closed`, () => {
    let server: TestServer;
    let api: KyLike;
    let file: LargeFile;
    const at = (path: string) => `${server.url}${path}`;

    beforeAll(async () => {
      server = await startTestServer();
      api = ky.create({ retry: 0, timeout: false }).extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
      file = await makeLargeFile();
    });
    afterAll(async () => {
      await server.close();
      await file.remove();
    });

    it('sends no form whose file is in another field, or that has several files', async () => {
      const before = server.requests.length;
      const misplaced = new FormData();
      misplaced.set('upload', new Blob(['x']), 'a.txt');
      expect(await caught(api.post(at('/docs'), { body: misplaced }))).toMatchObject({
        name: 'JweRequestError',
        code: 'ERR_JWE_FILE_FIELD',
      });
      const several = new FormData();
      several.append('file', new Blob(['a']), 'a.txt');
      several.append('other', new Blob(['b']), 'b.txt');
      expect(await caught(api.post(at('/docs'), { body: several }))).toMatchObject({
        code: 'ERR_JWE_FORM_UNSUPPORTED',
      });
      expect(server.requests.length).toBe(before);
    });

    it('refuses a 2xx answer that is not encrypted, naming what arrived', async () => {
      const error = await caught(api.post(at('/x?reply=html'), { json: { a: 1 } }));
      expect(error).toBeInstanceOf(JweResponseError);
      expect(error.code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
      expect(error.message).toContain(
        `text/html, no X-Encryption header, ${Buffer.byteLength(GATEWAY_PAGE)} bytes`,
      );
      const lenient = ky.create({ retry: 0 }).extend(jwe({ key: SHARED_KEY, plainResponses: 'accept' }));
      expect(await lenient.post(at('/x?reply=html'), { json: { a: 1 } }).text()).toBe(GATEWAY_PAGE);
    });

    it("passes a gateway's plain 502 page through as ky's HTTPError", async () => {
      const error = await caught(api.post(at('/x?reply=html&status=502'), { json: { a: 1 } }));
      expect(error.name).toBe('HTTPError');
      const response = error.response as Response;
      expect(response.status).toBe(502);
      expect(wasDecrypted(response)).toBe(false);
      expect(await errorBody(error, 'text')).toBe(GATEWAY_PAGE);
    });

    it('hands ky a genuine decrypted Response', async () => {
      const response = await api.post(at('/x'), { json: { a: 1 } });
      expect(wasDecrypted(response)).toBe(true);
      expect(response.headers.get('x-jwe-decrypted')).toBe('true');
      const copy = response.clone();
      expect(JSON.parse(await Response.prototype.text.call(response))).toMatchObject({ json: { a: 1 } });
      expect(await new Response(copy.body).json()).toMatchObject({ json: { a: 1 } });
    });

    it('sends through jwe({ fetch }), and refuses to send when a later fetch option would bypass it', async () => {
      const seen: string[] = [];
      const counting = (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      };
      const own = ky.create({ retry: 0 }).extend(jwe({ key: SHARED_KEY, fetch: counting }));
      expect(await own.post(at('/own-fetch'), { json: { a: 1 } }).json()).toMatchObject({ json: { a: 1 } });
      expect(seen).toEqual([at('/own-fetch')]);
      const before = server.requests.length;
      const bypassed = ky
        .create({ retry: 0 })
        .extend(jwe({ key: SHARED_KEY }))
        .extend({ fetch: counting });
      // ky 2.x refuses while it builds the call, ky 1.x when it is about to send.
      const error = await caught(
        Promise.resolve().then(() => bypassed.post(at('/bypass'), { json: { a: 1 } })),
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain('jwe({ fetch })');
      expect(server.requests.length).toBe(before);
    });

    for (const status of [413, 401]) {
      it(`reports a 200 MiB upload refused with ${status} before it was read as that HTTPError, every time`, async () => {
        for (let attempt = 0; attempt < 4; attempt++) {
          const form = new FormData();
          form.set('file', file.blob, 'scan.bin');
          const error = await caught(api.post(at(`/docs?refuse=1&status=${status}`), { body: form }));
          expect(error.name).toBe('HTTPError');
          const response = error.response as Response;
          expect(response.status).toBe(status);
          expect(await errorBody(error, 'json')).toEqual({ error: `refused with ${status}` });
        }
      });
    }
  });
}
