import { request } from 'node:http';
import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, KEY_A, KEYS, listen, type Running } from './helpers.js';

/** POSTs with the given X-Encryption header lines (an array sends one line per value). */
function postWith(url: string, encryption: string | string[], body: string) {
  return new Promise<{ status: number; json: { error?: Record<string, string> } }>((resolve, reject) => {
    const req = request(url, { method: 'POST' });
    req.setHeader('content-type', 'application/json');
    req.setHeader('x-encryption', encryption);
    req.on('response', async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(EXPRESS_VERSIONS)('the X-Encryption header on $name', ({ create }) => {
  let running: Running;
  let envelope: string;

  beforeAll(async () => {
    const app = create();
    const transport = jwe({ keys: KEYS });
    app.post('/json', transport, (req, res) => res.json({ body: req.body }));
    app.post('/upload', transport.upload(), (req, res) => res.json({ size: req.file?.size }));
    app.use(jweErrorHandler());
    running = await listen(app);
    envelope = JSON.stringify(await encryptJson({ a: 1 }, KEY_A, { kid: 'kid-a' }));
  });
  afterAll(() => running.close());

  it.each([
    ['sent twice', ['JWE', 'JWE']],
    ['"JWE, JWE"', 'JWE, JWE'],
    ['another value', 'none'],
    ['empty', ''],
  ])('refuses a header %s with 400 jwe.header.invalid on JSON and upload routes', async (_what, value) => {
    for (const path of ['/json', '/upload']) {
      const { status, json } = await postWith(`${running.url}${path}`, value, envelope);
      expect(status).toBe(400);
      expect(json.error).toMatchObject({ type: 'jwe.header.invalid', code: 'ERR_JWE_HEADER_INVALID' });
    }
  });

  it('accepts one "X-Encryption: JWE" in any case', async () => {
    const { status } = await postWith(`${running.url}/json`, ' jwe ', envelope);
    expect(status).toBe(200);
  });
});
