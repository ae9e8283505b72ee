import { request } from 'node:http';
import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { type JweHttpError, jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import type { ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftEnvelope, headerOf } from './craft.js';
import {
  EXPRESS_VERSIONS,
  joseEncrypt,
  KEY_A,
  KEY_B,
  KEYS,
  listen,
  postEncrypted,
  type Running,
} from './helpers.js';

const good = () => encryptJson({ still: 'serving' }, KEY_A, { kid: 'kid-a' });
const flip = (text: string, at: number) => {
  const bytes = Buffer.from(text, 'base64url');
  bytes[at] = (bytes[at] ?? 0) ^ 1;
  return bytes.toString('base64url');
};

describe.each(EXPRESS_VERSIONS)('jwe() errors on $name', ({ create }) => {
  let running: Running;
  const seen: JweHttpError[] = [];

  beforeAll(async () => {
    const app = create();
    app.use(jwe({ keys: KEYS, limit: '100kb' }));
    app.post('/echo', (req, res) => res.json(req.body));
    const record: ErrorRequestHandler = (err, _req, _res, next) => {
      seen.push(err);
      next(err);
    };
    app.use(record, jweErrorHandler());
    running = await listen(app);
  });
  afterAll(() => running.close());

  async function expectError(body: unknown, status: number, type: string, code: string, answerKey?: string) {
    seen.length = 0;
    const response = await postEncrypted(`${running.url}/echo`, body);
    const text = await response.text();
    expect(response.status).toBe(status);
    // Until the body authenticates the client may not hold our key, so only then is the answer plain.
    expect(response.headers.get('x-encryption')).toBe(answerKey ? 'JWE' : null);
    const answer = answerKey
      ? await decryptJson<{ error: { message: string } }>(text, answerKey)
      : JSON.parse(text);
    expect(answer.error).toMatchObject({ type, code });
    expect(answer.error.message.length).toBeGreaterThan(10);
    for (const secret of [KEY_A, KEY_B, 'serving']) expect(text).not.toContain(secret);
    // What Express's next(err) received, in body-parser's shape.
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ status, statusCode: status, expose: true, type, code });
    expect(seen[0]).toBeInstanceOf(Error);
    // The server keeps serving after every malformed input.
    const ok = await postEncrypted(`${running.url}/echo`, await good());
    expect(ok.status).toBe(200);
    return answer.error.message as string;
  }

  it('answers malformed envelopes with 400 jwe.envelope.invalid', async () => {
    const envelope = await good();
    const cases: unknown[] = [
      'not an envelope',
      '{"iv":',
      '[]',
      '',
      { ...envelope, iv: undefined },
      { ...envelope, ciphertext: 42 },
      { ...envelope, ciphertext: `${envelope.ciphertext}*` },
      { ...envelope, extra: 'member' },
      { ...envelope, protected: 'bm90IGpzb24' },
      { ...envelope, iv: 'AAAA' },
      'a.b.c',
    ];
    for (const body of cases) await expectError(body, 400, 'jwe.envelope.invalid', 'ERR_JWE_INVALID');
  });

  it('answers other algorithms and features with 400 jwe.unsupported', async () => {
    const envelope = await good();
    const cases = [
      { ...envelope, protected: headerOf({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' }) },
      { ...envelope, protected: headerOf({ alg: 'dir', enc: 'A256GCM' }) },
      { ...envelope, protected: headerOf({ alg: 'dir', enc: 'A128CBC-HS256', zip: 'DEF' }) },
      { ...envelope, protected: headerOf({ alg: 'dir', enc: 'A128CBC-HS256', crit: ['exp'], exp: 1 }) },
      {
        protected: envelope.protected,
        recipients: [{}],
        iv: envelope.iv,
        ciphertext: envelope.ciphertext,
        tag: envelope.tag,
      },
    ];
    for (const body of cases) await expectError(body, 400, 'jwe.unsupported', 'ERR_JWE_UNSUPPORTED');
  });

  it('answers an unknown kid with 400 jwe.kid.unknown', async () => {
    const message = await expectError(
      await encryptJson({ a: 1 }, KEY_A, { kid: 'kid-zz' }),
      400,
      'jwe.kid.unknown',
      'ERR_KEY_UNKNOWN',
    );
    expect(message).toContain('kid-zz');
    // Two keys and no kid: nothing says which one.
    await expectError(await encryptJson({ a: 1 }, KEY_A), 400, 'jwe.kid.unknown', 'ERR_KEY_UNKNOWN');
  });

  it('gives one identical answer for a bad tag, bad padding, a wrong key and a wrong tag length', async () => {
    const envelope = await joseEncrypt(KEY_A, '{"a":1}', 'kid-a');
    const badPadding = craftEnvelope(KEY_A, { paddedPlaintext: Buffer.alloc(32, 0x41), kid: 'kid-a' });
    const wrongKey = await joseEncrypt(KEY_B, '{"a":1}', 'kid-a');
    const cases = [
      { ...envelope, tag: flip(envelope.tag as string, 0) },
      { ...envelope, ciphertext: flip(envelope.ciphertext as string, 3) },
      { ...envelope, iv: flip(envelope.iv as string, 15) },
      badPadding,
      wrongKey,
      {
        ...envelope,
        tag: Buffer.concat([Buffer.from(envelope.tag as string, 'base64url'), Buffer.alloc(16)]).toString(
          'base64url',
        ),
      },
      {
        ...envelope,
        tag: Buffer.from(envelope.tag as string, 'base64url')
          .subarray(0, 8)
          .toString('base64url'),
      },
    ];
    const messages = new Set<string>();
    for (const body of cases)
      messages.add(await expectError(body, 400, 'jwe.decrypt.failed', 'ERR_JWE_DECRYPTION_FAILED'));
    expect(messages.size).toBe(1);
  });

  it('answers an authenticated body that is not JSON with 400 entity.parse.failed', async () => {
    const padded = Buffer.concat([Buffer.from('not json at all!'), Buffer.alloc(16, 16)]);
    await expectError(
      craftEnvelope(KEY_A, { paddedPlaintext: padded, kid: 'kid-a' }),
      400,
      'entity.parse.failed',
      'ERR_BODY_PARSE',
      KEY_A,
    );
  });

  it('answers a body over the limit with 413 entity.too.large', async () => {
    const big = await encryptJson({ blob: 'x'.repeat(120 * 1024) }, KEY_A, { kid: 'kid-a' });
    await expectError(big, 413, 'entity.too.large', 'ERR_JWE_TOO_LARGE');
    expect(seen[0]?.limit).toBe(100 * 1024);
  });

  it('refuses a declared Content-Length over the limit before the body is sent', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${running.url}/echo`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-encryption': 'JWE',
          'content-length': String(50 * 2 ** 20),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders(); // Headers only: not one byte of the declared 50 MiB.
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).error.type).toBe('entity.too.large');
    expect((await postEncrypted(`${running.url}/echo`, await good())).status).toBe(200);
  });

  it('stops reading a chunked body at the limit and answers 413 while the client is still sending', async () => {
    const total = 64 * 2 ** 20;
    const { status, written } = await new Promise<{ status: number; written: number }>((resolve, reject) => {
      const req = request(`${running.url}/echo`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-encryption': 'JWE',
          'transfer-encoding': 'chunked',
        },
      });
      let written = 0;
      let answered = false;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!answered && written < total) {
          written += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!answered) req.end();
      };
      req.on('response', (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, written });
        req.destroy();
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      pump();
    });
    expect(status).toBe(413);
    expect(written).toBeLessThan(total);
    expect((await postEncrypted(`${running.url}/echo`, await good())).status).toBe(200);
  });

  it('survives a client that goes away in the middle of its body', async () => {
    seen.length = 0;
    await new Promise<void>((resolve) => {
      const req = request(`${running.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', 'content-length': '5000' },
      });
      req.on('error', () => {});
      req.write('{"protected":"eyJhbGciOiJkaXIi', () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 50),
      );
    });
    await expect.poll(() => seen.map((error) => error.type)).toEqual(['request.aborted']);
    expect((await postEncrypted(`${running.url}/echo`, await good())).status).toBe(200);
  });

  it('answers a compressed body with 415 encoding.unsupported', async () => {
    seen.length = 0;
    const response = await fetch(`${running.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', 'content-encoding': 'gzip' },
      body: JSON.stringify(await good()),
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error.type).toBe('encoding.unsupported');
  });
});
