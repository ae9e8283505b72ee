import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, KEY_A, KEYS, listen, type Running } from './helpers.js';
import { post } from './sizes.js';

/** POSTs with the given X-Encryption header (an array sends one header line per value). */
async function postWith(url: string, encryption: string | string[], body: string) {
  const answer = await post(
    url,
    { 'content-type': 'application/json', 'x-encryption': encryption },
    Buffer.from(body),
  );
  return { status: answer.status, json: JSON.parse(answer.text) as { error?: Record<string, string> } };
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
