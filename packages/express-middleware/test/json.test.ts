import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import type { Express, Request } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { jwcryptoDecrypt, jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import {
  EXPRESS_VERSIONS,
  joseDecryptJson,
  joseEncrypt,
  KEY_A,
  KEY_B,
  KEYS,
  listen,
  postEncrypted,
  postJson,
  type Running,
} from './helpers.js';

const utf8 = new TextEncoder();

describe.each(EXPRESS_VERSIONS)('jwe() JSON bodies on $name', ({ create, json }) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  /** An app whose route echoes what the handler saw, so tests check the middleware's work end to end. */
  async function start(configure: (app: Express) => void): Promise<string> {
    const app = create();
    configure(app);
    app.post('/echo', (req: Request, res) => {
      res.json({ body: req.body, jwe: req.jwe ?? null });
    });
    app.use(jweErrorHandler());
    running = await listen(app);
    return `${running.url}/echo`;
  }

  it('decrypts an npm jose envelope into req.body and answers with an envelope jose decrypts', async () => {
    const url = await start((app) => app.use(jwe({ keys: KEYS })));
    const sent = { aadhaar_number: '123412341234', nested: { list: [1, 2, 3] } };
    const response = await postEncrypted(url, await joseEncrypt(KEY_B, JSON.stringify(sent), 'kid-b'));

    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBe('JWE');
    expect(response.headers.get('vary')).toMatch(/x-encryption/i);
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const envelope = JSON.parse(text);
    expect(envelope.kid).toBe('kid-b');
    expect(text).not.toContain('123412341234');
    const answer = (await joseDecryptJson(KEY_B, envelope)) as {
      body: unknown;
      jwe: Record<string, unknown>;
    };
    expect(answer.body).toEqual(sent);
    expect(answer.jwe).toMatchObject({
      encrypted: true,
      kid: 'kid-b',
      headerSource: 'protected',
      encryptsResponse: true,
    });
    expect(answer.jwe.header).toEqual({ alg: 'dir', enc: 'A128CBC-HS256' });
  });

  it('accepts python-jwcrypto envelopes and its answers decrypt with python-jwcrypto', async () => {
    const url = await start((app) => app.use(jwe({ keys: KEYS })));
    const sent = { aadhaar_number: '999988887777', name: 'Ünïcødé ✓' };
    const [envelope] = await jwcryptoEncrypt(KEY_A, utf8.encode(JSON.stringify(sent)), { kid: 'kid-a' });
    const response = await postEncrypted(url, envelope);

    expect(response.status).toBe(200);
    const [result] = await jwcryptoDecrypt(KEY_A, [await response.json()]);
    expect(result?.ok).toBe(true);
    const answer = JSON.parse(new TextDecoder().decode(result?.ok ? result.plaintext : new Uint8Array()));
    expect(answer.body).toEqual(sent);
    expect(answer.jwe.kid).toBe('kid-a');
  });

  it('accepts the compact serialization and an envelope without kid when one key is configured', async () => {
    const url = await start((app) => app.use(jwe({ keys: { only: KEY_A } })));
    const envelope = await joseEncrypt(KEY_A, '{"n":1}');
    const compact = `${envelope.protected}..${envelope.iv}.${envelope.ciphertext}.${envelope.tag}`;
    const response = await postEncrypted(url, compact);

    expect(response.status).toBe(200);
    const reply = await response.json();
    expect(reply.kid).toBeUndefined();
    const answer = await decryptJson<{ body: unknown; jwe: { kid?: string } }>(reply, KEY_A);
    expect(answer.body).toEqual({ n: 1 });
    expect(answer.jwe.kid).toBeUndefined();
  });

  it('picks keys through an async resolver, for rotation', async () => {
    const seen: Array<string | undefined> = [];
    const url = await start((app) =>
      app.use(
        jwe({
          keys: async (kid) => {
            seen.push(kid);
            await new Promise((resolve) => setImmediate(resolve));
            return kid === '2026-11' ? KEY_B : undefined;
          },
        }),
      ),
    );
    const ok = await postEncrypted(url, await encryptJson({ v: 'new' }, KEY_B, { kid: '2026-11' }));
    expect(ok.status).toBe(200);
    expect(await decryptJson(await ok.json(), KEY_B)).toMatchObject({ body: { v: 'new' } });

    const unknown = await postEncrypted(url, await encryptJson({ v: 'old' }, KEY_A, { kid: '2025-01' }));
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.type).toBe('jwe.kid.unknown');
    expect(seen).toEqual(['2026-11', '2025-01']);
  });

  it('parses plain JSON itself and answers it in plain JSON', async () => {
    const url = await start((app) => app.use(jwe({ keys: KEYS })));
    const response = await postJson(url, { plain: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toEqual({
      body: { plain: true },
      jwe: { encrypted: false, encryptsResponse: false },
    });
  });

  it('leaves plain JSON to express.json() with plainJson: "ignore"', async () => {
    const ignoring = await start((app) => {
      app.use(jwe({ keys: KEYS, plainJson: 'ignore' }));
    });
    const unparsed = await (await postJson(ignoring, { a: 1 })).json();
    expect(unparsed.body ?? {}).toEqual({});
    await running?.close();

    const withParser = await start((app) => {
      app.use(jwe({ keys: KEYS, plainJson: 'ignore' }));
      app.use(json());
    });
    expect((await (await postJson(withParser, { a: 1 })).json()).body).toEqual({ a: 1 });
    const encrypted = await postEncrypted(withParser, await encryptJson({ b: 2 }, KEY_A, { kid: 'kid-a' }));
    expect(await decryptJson(await encrypted.json(), KEY_A)).toMatchObject({ body: { b: 2 } });
  });

  it('fails loudly (500 jwe.mount.order) when express.json() mounted earlier parsed an envelope', async () => {
    const logged: unknown[] = [];
    const app = create();
    app.use(json());
    app.use(jwe({ keys: KEYS }));
    app.post('/echo', (req: Request, res) => res.json({ body: req.body }));
    app.use(jweErrorHandler({ onError: (error) => logged.push(error) }));
    running = await listen(app);
    // express.json() keeps the last of two "iv" members; the envelope's own check would refuse it.
    const envelope = JSON.stringify(await joseEncrypt(KEY_A, '{"late":"parser"}', 'kid-a'));
    const response = await postEncrypted(`${running.url}/echo`, envelope.replace('{', '{"iv":"AAAA",'));
    expect(response.status).toBe(500);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect((await response.json()).error).toEqual({
      type: 'server.error',
      code: 'ERR_JWE_MOUNT_ORDER',
      message: 'Internal Server Error',
    });
    expect(logged).toHaveLength(1);
    expect(String((logged[0] as Error).message)).toMatch(
      /express\.json\(\)\?\) already read this encrypted request/,
    );
    // Plain JSON through the same app is fine: express.json() owns it.
    expect((await postJson(`${running.url}/echo`, { a: 1 })).status).toBe(200);
  });

  it('refuses plain bodies with 415 jwe.required when encryption is required, but not body-less requests', async () => {
    const app = create();
    app.use(jwe({ keys: KEYS, requireEncryption: true }));
    app.post('/echo', (req, res) => res.json({ body: req.body ?? null }));
    app.get('/status', (_req, res) => res.json({ ok: true }));
    app.use(jweErrorHandler());
    running = await listen(app);

    const plain = await postJson(`${running.url}/echo`, { a: 1 });
    expect(plain.status).toBe(415);
    expect((await plain.json()).error).toMatchObject({ type: 'jwe.required', code: 'ERR_JWE_REQUIRED' });
    const text = await fetch(`${running.url}/echo`, { method: 'POST', body: 'x=1' });
    expect(text.status).toBe(415);
    expect((await fetch(`${running.url}/status`)).status).toBe(200);
    const encrypted = await postEncrypted(
      `${running.url}/echo`,
      await encryptJson({ a: 2 }, KEY_A, { kid: 'kid-a' }),
    );
    expect(await decryptJson(await encrypted.json(), KEY_A)).toEqual({ body: { a: 2 } });
  });

  it('encrypts errors raised after decryption, under the request kid', async () => {
    const app = create();
    app.use(jwe({ keys: KEYS }));
    app.post('/fail', (req, _res, next) => {
      next(
        Object.assign(
          new Error(`aadhaar ${(req.body as { aadhaar_number: string }).aadhaar_number} rejected`),
          { status: 422, expose: true, type: 'validation.failed' },
        ),
      );
    });
    app.use(jweErrorHandler());
    running = await listen(app);

    const response = await postEncrypted(
      `${running.url}/fail`,
      await joseEncrypt(KEY_B, '{"aadhaar_number":"12"}', 'kid-b'),
    );
    expect(response.status).toBe(422);
    expect(response.headers.get('x-encryption')).toBe('JWE');
    const envelope = await response.json();
    expect(JSON.stringify(envelope)).not.toContain('rejected');
    expect(await joseDecryptJson(KEY_B, envelope)).toEqual({
      error: { type: 'validation.failed', message: 'aadhaar 12 rejected' },
    });
  });

  it('answers a failing key resolver with a 500 that says nothing about it', async () => {
    const url = await start((app) =>
      app.use(
        jwe({
          keys: () => {
            throw new Error('vault at 10.0.0.7 refused token s3cr3t');
          },
        }),
      ),
    );
    const response = await postEncrypted(url, await encryptJson({ a: 1 }, KEY_A, { kid: 'kid-a' }));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/vault|s3cr3t/);
    expect(JSON.parse(text).error.message).toBe('Internal Server Error');
  });

  it('hides the message of server errors', async () => {
    const app = create();
    app.use(jwe({ keys: KEYS }));
    app.post('/boom', () => {
      throw new Error('database password is hunter2');
    });
    app.use(jweErrorHandler());
    running = await listen(app);

    const response = await postJson(`${running.url}/boom`, {});
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('hunter2');
  });

  it('encrypts answers to plain requests with responses: "always", and none with "never"', async () => {
    const always = await start((app) =>
      app.use(jwe({ keys: KEYS, responses: 'always', responseKid: 'kid-b' })),
    );
    const answer = await postJson(always, { q: 1 });
    expect(answer.headers.get('x-encryption')).toBe('JWE');
    const envelope = await answer.json();
    expect(envelope.kid).toBe('kid-b');
    expect(await decryptJson(envelope, KEY_B)).toMatchObject({
      body: { q: 1 },
      jwe: { encrypted: false, encryptsResponse: true },
    });
    await running?.close();

    const never = await start((app) => app.use(jwe({ keys: KEYS, responses: 'never' })));
    const plain = await postEncrypted(never, await encryptJson({ q: 2 }, KEY_A, { kid: 'kid-a' }));
    expect(plain.headers.get('x-encryption')).toBeNull();
    expect(await plain.json()).toMatchObject({
      body: { q: 2 },
      jwe: { encrypted: true, encryptsResponse: false },
    });
  });

  it('encrypts res.send of a JSON string and leaves non-JSON answers alone', async () => {
    const app = create();
    app.use(jwe({ keys: KEYS }));
    app.post('/text', (_req, res) => {
      res.type('text/plain').send('plain words');
    });
    app.post('/json-string', (_req, res) => {
      res.type('application/json').send('{"raw":true}');
    });
    app.post('/empty', (_req, res) => {
      res.status(204).send();
    });
    running = await listen(app);
    const envelope = () => encryptJson({}, KEY_A, { kid: 'kid-a' });

    const text = await postEncrypted(`${running.url}/text`, await envelope());
    expect(text.headers.get('x-encryption')).toBeNull();
    expect(await text.text()).toBe('plain words');
    const raw = await postEncrypted(`${running.url}/json-string`, await envelope());
    expect(await decryptJson(await raw.json(), KEY_A)).toEqual({ raw: true });
    const empty = await postEncrypted(`${running.url}/empty`, await envelope());
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('has written the encrypted answer when res.json() returns, as Express does for plain answers', async () => {
    const app = create();
    app.use(jwe({ keys: KEYS }));
    let sentOnReturn: boolean | undefined;
    app.post('/now', (_req, res) => {
      res.json({ ok: true });
      sentOnReturn = res.headersSent && res.writableEnded;
    });
    running = await listen(app);
    const response = await postEncrypted(
      `${running.url}/now`,
      await encryptJson({}, KEY_A, { kid: 'kid-a' }),
    );
    expect(await decryptJson(await response.json(), KEY_A)).toEqual({ ok: true });
    expect(sentOnReturn).toBe(true);
  });

  it('runs once when mounted at app and router level', async () => {
    const app = create();
    const middleware = jwe({ keys: KEYS });
    app.use(middleware);
    app.post('/twice', middleware, (req, res) => res.json(req.body));
    running = await listen(app);
    const response = await postEncrypted(
      `${running.url}/twice`,
      await encryptJson({ once: 1 }, KEY_A, { kid: 'kid-a' }),
    );
    expect(await decryptJson(await response.json(), KEY_A)).toEqual({ once: 1 });
  });
});

describe('jwe() options', () => {
  it('rejects unusable options when the middleware is created', () => {
    expect(() => jwe({ keys: {} })).toThrow(/keys/);
    expect(() => jwe({ keys: { a: 'too short' } })).toThrow(/16 bytes/);
    expect(() => jwe({ keys: KEYS, limit: 'lots' })).toThrow(/limit/);
    expect(() => jwe({ keys: KEYS, responses: 'sometimes' as 'auto' })).toThrow(/responses/);
    expect(() => jwe({ keys: KEYS, responses: 'always' })).toThrow(/responseKid/);
    expect(() => jwe({ keys: KEYS, responses: 'always', responseKid: 'kid-zz' })).toThrow(/responseKid/);
    expect(() => jwe({ keys: { only: KEY_A }, responses: 'always' })).not.toThrow();
  });
});
