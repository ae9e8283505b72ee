import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import type { Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EXPRESS_VERSIONS,
  joseDecryptJson,
  joseEncrypt,
  KEY_A,
  KEYS,
  listen,
  postEncrypted,
  type Running,
} from './helpers.js';

describe.each(EXPRESS_VERSIONS)('JSON parsing rules on $name', ({ create }) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<Parameters<typeof jwe>[0]> = {}) {
    const app: Express = create();
    app.use(jwe({ keys: KEYS, ...options }));
    app.post('/echo', (req, res) => res.json({ body: req.body }));
    app.use(jweErrorHandler());
    running = await listen(app);
    return `${running.url}/echo`;
  }

  const sendPlain = (url: string, body: string, type = 'application/json') =>
    fetch(url, { method: 'POST', headers: { 'content-type': type }, body });

  it.each([
    ['a duplicate member', '{"amount":1,"amount":1000}'],
    ['a nested duplicate member', '{"order":{"id":1,"id":2}}'],
    ['a __proto__ member', '{"__proto__":{"admin":true}}'],
    ['an escaped __proto__ member', '{"\\u005f_proto__":{"admin":true}}'],
    ['a constructor member deep inside', '{"a":[{"b":{"constructor":{"prototype":{}}}}]}'],
  ])('refuses decrypted JSON with %s: 400 jwe.plaintext.invalid, answered encrypted', async (_what, text) => {
    const url = await start();
    const response = await postEncrypted(url, await joseEncrypt(KEY_A, text, 'kid-a'));
    expect(response.status).toBe(400);
    const { error } = (await joseDecryptJson(KEY_A, await response.json())) as {
      error: Record<string, string>;
    };
    expect(error).toMatchObject({ type: 'jwe.plaintext.invalid', code: 'ERR_JWE_PLAINTEXT_INVALID' });
    expect(error.message).not.toContain('amount');
  });

  it('reads names inside string values as text, not as members', async () => {
    const url = await start();
    const value = { note: '"amount":1,"amount":2 {"__proto__":1}', list: ['a', 'a'] };
    const response = await postEncrypted(url, await encryptJson(value, KEY_A, { kid: 'kid-a' }));
    expect(response.status).toBe(200);
    expect(await joseDecryptJson(KEY_A, await response.json())).toEqual({ body: value });
  });

  it('with strictJson: false, hands on what JSON.parse makes of it', async () => {
    const url = await start({ strictJson: false });
    const response = await postEncrypted(
      url,
      await joseEncrypt(KEY_A, '{"amount":1,"amount":1000}', 'kid-a'),
    );
    expect(response.status).toBe(200);
    expect(await joseDecryptJson(KEY_A, await response.json())).toEqual({ body: { amount: 1000 } });
  });

  it('passes a top-level null, number or string on, as JSON allows and every adapter does', async () => {
    const url = await start();
    for (const text of ['"text"', '42', 'null', ' true', ' [1,2]']) {
      expect(await (await sendPlain(url, text)).json()).toEqual({ body: JSON.parse(text) });
    }
  });

  it('refuses plain JSON declared in another charset with 415, and drops a UTF-8 byte order mark', async () => {
    const url = await start();
    const latin1 = await sendPlain(url, '{"a":1}', 'application/json; charset=iso-8859-1');
    expect(latin1.status).toBe(415);
    expect((await latin1.json()).error).toMatchObject({
      type: 'charset.unsupported',
      code: 'ERR_CHARSET_UNSUPPORTED',
    });
    const utf8 = await sendPlain(url, '{"a":"é"}', 'application/json; charset=UTF-8');
    expect(await utf8.json()).toEqual({ body: { a: 'é' } });
    const bom = '\uFEFF{"a":1}'; // fetch sends it as UTF-8: EF BB BF first
    expect(await (await sendPlain(url, bom)).json()).toEqual({ body: { a: 1 } });
  });

  it('reads plain JSON with the same strict parser as decrypted JSON (duplicates refused)', async () => {
    const url = await start();
    const response = await sendPlain(url, '{"a":1,"a":2}');
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'ERR_JWE_PLAINTEXT_INVALID' });
  });
});
