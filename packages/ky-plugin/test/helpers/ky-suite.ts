// The same behaviour checks for ky 1.x and ky 2.x: each version's test file calls kySuite() with
// its own ky, so both calling conventions run against the same real server.
import { createHash, randomBytes } from 'node:crypto';
import { JweRequestError, JweResponseError } from '@jwe-transport/client-core';
import { keyring } from '@jwe-transport/codec';
import { joseDecrypt, referenceKey } from '@jwe-transport/test-support/client/reference-jwe';
import type kyOne from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwe } from '../../src/index.js';
import { SHARED_KEY, startTestServer, type TestServer } from './test-server.js';

/** Both generations share this much surface; ky 2.x is cast to ky 1.x's type for it. */
export type KyLike = typeof kyOne;

const REGISTRATION = '/abdm/na/v1/registration/aadhaar/init';
const DOCS = '/mr/api/v2/docs';
const key = referenceKey(SHARED_KEY);
const decode = async (envelope: unknown) =>
  JSON.parse(Buffer.from(await joseDecrypt(envelope, key)).toString('utf8')) as unknown;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Echo {
  path: string;
  query: Record<string, string>;
  encrypted: boolean;
  json: unknown;
  file: { size: number; sha256: string } | null;
  raw: string | null;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

export function kySuite(label: string, ky: KyLike): void {
  describe(`jwe() with ${label}`, () => {
    let server: TestServer;
    let api: KyLike;
    const at = (path: string) => `${server.url}${path}`;
    const last = () => server.requests.at(-1)!;

    beforeAll(async () => {
      server = await startTestServer();
      // The README's one line: an existing instance, extended with the plugin.
      const existing = ky.create({ headers: { authorization: 'Bearer test-token' }, retry: 0 });
      api = existing.extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
    });
    afterAll(() => server.close());

    it('encrypts the registration-initiation JSON (spec 4.2) and decrypts the reply', async () => {
      const body = { aadhaar_number: '999941057058' };
      const reply = await api.post(at(REGISTRATION), { json: body }).json<Echo>();
      const received = last();
      expect(received.encrypted).toBe(true);
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers.authorization).toBe('Bearer test-token');
      expect(received.envelope?.kid).toBe('kid-1');
      expect(received.envelope?.protected).toBe('eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0');
      expect(received.envelope && JSON.stringify(received.envelope)).not.toContain('999941057058');
      expect(await decode(received.envelope)).toEqual(body);
      expect(received.headers['content-length']).toBe(String(JSON.stringify(received.envelope).length));
      expect(reply).toMatchObject({ path: REGISTRATION, encrypted: true, json: body });
    });

    it('decrypts replies without "protected" (empty AAD) and keeps status and headers', async () => {
      const response = await api.post(at(`${REGISTRATION}?reply=bare&status=201&mark=1`), {
        json: { aadhaar_number: '1' },
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-encryption')).toBeNull();
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toMatchObject({ json: { aadhaar_number: '1' } });
    });

    it('uploads a document (spec 4.3) as {"file": base64} with the task query', async () => {
      const bytes = randomBytes(50_000);
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'report.pdf');
      const reply = await api.post(at(DOCS), { body: form, searchParams: { task: 'smart' } }).json<Echo>();
      const received = last();
      expect(received.encrypted).toBe(true);
      expect(received.streamed).toBe(false);
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.query).toEqual({ task: 'smart' });
      expect(received.file).toEqual({ size: bytes.length, sha256: sha256(bytes) });
      expect(reply.file).toEqual({ size: bytes.length, sha256: sha256(bytes) });
    });

    it('streams a file over the threshold through the streaming encoder', async () => {
      const streaming = ky
        .create({ retry: 0 })
        .extend(jwe({ key: SHARED_KEY, kid: 'kid-1', streamThreshold: 64 * 1024 }));
      const bytes = randomBytes(3 * 2 ** 20 + 7);
      const form = new FormData();
      form.set('file', new Blob([bytes]));
      const reply = await streaming.post(at(`${DOCS}?task=pii`), { body: form }).json<Echo>();
      const received = last();
      expect(received.streamed).toBe(true);
      expect(received.headers['transfer-encoding']).toBe('chunked');
      expect(received.file).toEqual({ size: bytes.length, sha256: sha256(bytes) });
      expect(reply.file).toEqual(received.file);
    });

    it("retries a streamed upload with ky's retry, sealing the file afresh for every attempt", async () => {
      const streaming = ky.create({
        retry: { limit: 3, methods: ['post'], statusCodes: [503], delay: () => 0 },
      });
      const client = streaming.extend(jwe({ key: SHARED_KEY, streamThreshold: 1024 }));
      const bytes = randomBytes(10_000);
      const form = new FormData();
      form.set('file', new Blob([bytes]));
      const before = server.requests.length;
      const error = (await caught(client.post(at('/stream-retried?fail=5'), { body: form }))) as {
        name: string;
        response: Response;
      };
      expect(error.name).toBe('HTTPError');
      expect(error.response.status).toBe(503);
      const attempts = server.requests.slice(before);
      expect(attempts).toHaveLength(4);
      for (const attempt of attempts) {
        expect(attempt.streamed).toBe(true);
        expect(attempt.file).toEqual({ size: bytes.length, sha256: sha256(bytes) });
      }
    });

    // Retries of every re-readable body are cases of the client conformance suite (conformance-ky*.test.ts).

    it('decrypts error responses, so HTTPError carries the readable body', async () => {
      const error = (await caught(
        api.post(at(`${REGISTRATION}?status=422`), { json: { aadhaar_number: 'x' } }),
      )) as { name: string; response: Response; data?: unknown };
      expect(error.name).toBe('HTTPError');
      expect(error.response.status).toBe(422);
      expect(error.response.headers.get('x-encryption')).toBeNull();
      // ky 2.x reads the body into error.data itself; ky 1.x leaves it to the caller.
      const body = 'data' in error ? error.data : await error.response.json();
      expect(body).toMatchObject({ json: { aadhaar_number: 'x' } });
    });

    it('raises JweResponseError with the codec code and the status for a wrong key', async () => {
      const error = await caught(
        api.post(at(`${REGISTRATION}?reply=wrongkey&status=409`), { json: { a: 1 } }),
      );
      expect(error).toBeInstanceOf(JweResponseError);
      const typed = error as JweResponseError;
      expect(typed.code).toBe('ERR_JWE_DECRYPTION_FAILED');
      expect(typed.status).toBe(409);
      expect(typed.response.status).toBe(409);
      expect(typed.message).not.toContain(SHARED_KEY);
      expect(typed.message).not.toContain('"a"');
    });

    it('raises ERR_JWE_INVALID when a response marked X-Encryption: JWE is not an envelope', async () => {
      const error = await caught(api.post(at('/marked?reply=garbage-marked'), { json: { a: 1 } }));
      expect(error).toBeInstanceOf(JweResponseError);
      expect((error as JweResponseError).code).toBe('ERR_JWE_INVALID');
      expect((error as JweResponseError).status).toBe(200);
    });

    it('sends and reads plainly when a request opts out through context', async () => {
      const reply = await api
        .post(at('/plain'), { json: { visible: true }, context: { jwe: false } })
        .json<Echo>();
      const received = last();
      expect(received.encrypted).toBe(false);
      expect(received.headers['x-encryption']).toBeUndefined();
      expect(received.raw).toBe('{"visible":true}');
      expect(reply.raw).toBe('{"visible":true}');
    });

    it('applies the encrypt predicate', async () => {
      const client = ky.create({ retry: 0 }).extend(
        jwe({
          key: SHARED_KEY,
          encrypt: (request) => !new URL(request.url).pathname.startsWith('/public/'),
        }),
      );
      await client.post(at('/public/echo'), { json: { open: 1 } }).json();
      expect(last().encrypted).toBe(false);
      await client.post(at('/private/echo'), { json: { closed: 1 } }).json();
      expect(last().encrypted).toBe(true);
      expect(last().json).toEqual({ closed: 1 });
    });

    it('refuses text, URL-encoded forms and forms without a file instead of sending them plain', async () => {
      const before = server.requests.length;
      const text = await caught(
        api.post(at('/text'), { body: 'just text', headers: { 'content-type': 'text/plain' } }),
      );
      expect(text).toMatchObject({ name: 'JweRequestError', code: 'ERR_JWE_BODY_UNSUPPORTED' });
      const urlencoded = await caught(api.post(at('/urlencoded'), { body: new URLSearchParams({ a: '1' }) }));
      expect(urlencoded).toMatchObject({ code: 'ERR_JWE_BODY_UNSUPPORTED' });
      expect((urlencoded as Error).message).toContain('URL-encoded form');
      const form = new FormData();
      form.set('note', 'no file here');
      expect(await caught(api.post(at('/form'), { body: form }))).toMatchObject({
        code: 'ERR_JWE_FORM_UNSUPPORTED',
      });
      expect(server.requests.length).toBe(before);
      const reply = await api.get(at('/plain-get')).json<Echo>();
      expect(reply).toMatchObject({ path: '/plain-get', encrypted: false });
    });

    it('refuses a form with a file and other fields before sending anything', async () => {
      const form = new FormData();
      form.set('file', new Blob(['x']));
      form.set('task', 'smart');
      const before = server.requests.length;
      const error = await caught(api.post(at(DOCS), { body: form }));
      expect(error).toBeInstanceOf(JweRequestError);
      expect((error as JweRequestError).code).toBe('ERR_JWE_FORM_UNSUPPORTED');
      expect(server.requests.length).toBe(before);
    });

    it('takes a key resolver: the envelope names the kid, and unmarked replies decrypt by it', async () => {
      const rotating = ky
        .create({ retry: 0 })
        .extend(jwe({ key: keyring({ 'kid-2026': SHARED_KEY }), kid: 'kid-2026' }));
      const reply = await rotating.post(at('/rotating'), { json: { n: 2026 } }).json<Echo>();
      expect(last().envelope?.kid).toBe('kid-2026');
      expect(await decode(last().envelope)).toEqual({ n: 2026 });
      expect(reply.json).toEqual({ n: 2026 });
    });

    it('serializes json bodies with jwe({ stringifyJson }), for a static key and for a resolver', async () => {
      const stringifyJson = (data: unknown) =>
        JSON.stringify(data, (_name, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
      const staticKey = jwe({ key: SHARED_KEY, stringifyJson });
      const resolver = jwe({ key: keyring({ 'kid-9': SHARED_KEY }), kid: 'kid-9', stringifyJson });
      for (const options of [staticKey, resolver]) {
        const client = ky.create({ retry: 0 }).extend(options);
        await client.post(at('/bigint'), { json: { big: 2n ** 70n } }).json();
        expect(last().encrypted).toBe(true);
        expect(await decode(last().envelope)).toEqual({ big: `${2n ** 70n}n` });
      }
    });

    it("still encrypts when a later extend() replaces its stringifyJson with the caller's own", async () => {
      const client = ky
        .create({ retry: 0 })
        .extend(jwe({ key: SHARED_KEY }))
        .extend({ stringifyJson: (data: unknown) => JSON.stringify({ wrapped: data }) });
      await client.post(at('/own-stringify'), { json: { n: 1 } }).json();
      expect(last().encrypted).toBe(true);
      expect(await decode(last().envelope)).toEqual({ wrapped: { n: 1 } });
    });

    it('seals json while ky serializes it only where that can happen synchronously', () => {
      expect(typeof jwe({ key: SHARED_KEY }).stringifyJson).toBe('function');
      // A resolver may answer later, and a predicate needs the built request: both seal in beforeRequest.
      expect(jwe({ key: keyring({ a: SHARED_KEY }), kid: 'a' }).stringifyJson).toBeUndefined();
      expect(jwe({ key: SHARED_KEY, encrypt: () => true }).stringifyJson).toBeUndefined();
      expect(() => jwe({ key: SHARED_KEY, stringifyJson: 'no' as never })).toThrow(/stringifyJson/);
    });

    it('an opt-out decided after sealing still sends the plaintext JSON, unmarked', async () => {
      const reply = await api
        .post(at('/opt-out'), { json: { seen: 'in clear' }, context: { jwe: { request: false } } })
        .json<Echo>();
      expect(last().encrypted).toBe(false);
      expect(last().headers['x-encryption']).toBeUndefined();
      expect(last().raw).toBe('{"seen":"in clear"}');
      expect(reply.raw).toBe('{"seen":"in clear"}');
    });

    it('leaves bodiless responses alone', async () => {
      const response = await api.post(at('/empty?status=204'), { json: { a: 1 } });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    });

    it('honours responses: "always" and "never"', async () => {
      const always = ky.create({ retry: 0 }).extend(jwe({ key: SHARED_KEY, responses: 'always' }));
      const error = await caught(always.get(at('/plain-reply?reply=plain')));
      expect((error as JweResponseError).code).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
      const never = ky.create({ retry: 0 }).extend(jwe({ key: SHARED_KEY, responses: 'never' }));
      const raw = await never.post(at('/raw-reply'), { json: { a: 2 } }).json<Record<string, string>>();
      expect(Object.keys(raw).sort()).toEqual(['ciphertext', 'iv', 'protected', 'tag']);
      expect(await decode(raw)).toMatchObject({ json: { a: 2 } });
    });
  });
}
