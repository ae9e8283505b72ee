import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptJson, encryptFile } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EXPRESS_VERSIONS,
  KEY_A,
  KEYS,
  listen,
  postEncrypted,
  type Running,
  storedFiles,
} from './helpers.js';

/** The envelope's members in the given order, as a sender is free to write them. */
function ordered(envelope: Record<string, unknown>, order: string[]): string {
  return `{${order.map((name) => `${JSON.stringify(name)}:${JSON.stringify(envelope[name])}`).join(',')}}`;
}

const KID_FIRST = ['kid', 'protected', 'iv', 'ciphertext', 'tag'];
const KID_LAST = ['protected', 'iv', 'ciphertext', 'tag', 'kid'];

describe.each(EXPRESS_VERSIONS)('envelopes with late key members, on disk, on $name', ({ create }) => {
  let running: Running;
  let dest: string;
  let file: Buffer;
  let envelope: Record<string, unknown>;

  beforeAll(async () => {
    dest = await mkdtemp(join(tmpdir(), 'jwe-spill-test-'));
    const app = create();
    const transport = jwe({ keys: KEYS });
    app.post('/capped', transport.upload({ dest, maxSpill: '64kb' }), (req, res) =>
      res.json({ size: req.file?.size }),
    );
    app.post('/default', transport.upload({ dest }), (req, res) => res.json({ size: req.file?.size }));
    app.use(jweErrorHandler());
    running = await listen(app);
    file = randomBytes(200_000);
    envelope = (await encryptFile(file, KEY_A, { kid: 'kid-a' })) as unknown as Record<string, unknown>;
  });
  afterAll(async () => {
    await running.close();
    await rm(dest, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const name of await storedFiles(dest)) await rm(join(dest, name), { force: true, recursive: true });
  });

  it('refuses with 413 a ciphertext past maxSpill before its kid, leaving no file or spill behind', async () => {
    const response = await postEncrypted(`${running.url}/capped`, ordered(envelope, KID_LAST));
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({
      type: 'entity.too.large',
      code: 'ERR_JWE_TOO_LARGE',
    });
    expect(await storedFiles(dest)).toEqual([]);
  });

  it('streams the same envelope with kid first past the same cap', async () => {
    const response = await postEncrypted(`${running.url}/capped`, ordered(envelope, KID_FIRST));
    expect(response.status).toBe(200);
    expect(await decryptJson(await response.json(), KEY_A)).toEqual({ size: file.length });
  });

  it('spills up to the route limit by default', async () => {
    const response = await postEncrypted(`${running.url}/default`, ordered(envelope, KID_LAST));
    expect(response.status).toBe(200);
    expect((await storedFiles(dest)).filter((name) => name.endsWith('.spill'))).toEqual([]);
  });

  it('refuses an unknown late kid as soon as it is read, before the rest of the envelope arrives', async () => {
    const head = ordered({ ...envelope, kid: 'retired-2019' }, ['protected', 'iv', 'ciphertext', 'kid']);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${running.url}/default`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-encryption': 'JWE',
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', async (res) => {
        let text = '';
        for await (const chunk of res) text += chunk;
        resolve({ status: res.statusCode ?? 0, text });
        req.destroy();
      });
      req.on('error', reject);
      // Everything up to the kid, then a comma: the tag and the closing brace are never sent.
      req.write(`${head.slice(0, -1)},`);
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error).toMatchObject({ type: 'jwe.kid.unknown', code: 'ERR_KEY_UNKNOWN' });
    expect(await storedFiles(dest)).toEqual([]);
  });
});
