import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptJson, encryptFile, encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler, uploadedFile } from '@jwe-transport/express-middleware';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, KEY_A, KEYS, listen, type Running, storedFiles } from './helpers.js';
import { fileSizeForEnvelope, multipartOfSize, post } from './sizes.js';

/*
 * Every upload path at its limit: the largest body it admits and the smallest it refuses. The
 * in-memory paths once answered 500 above ~3.2 MiB files (a regular expression ran out of stack
 * on the base64 text), far below the 10 MiB default limit of upload().
 */

const KiB = 1024;
const MiB = 1024 * KiB;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const ENCRYPTED = { 'content-type': 'application/json', 'x-encryption': 'JWE' };

async function describeUpload(req: Request, res: Response) {
  const file = uploadedFile(req);
  const bytes = file.buffer ?? (await readFile(file.path ?? ''));
  res.json({ size: file.size, sha256: sha256(bytes), storage: file.buffer ? 'memory' : 'disk' });
}

/** An encrypted upload whose envelope is `limit` bytes at most (or just over it). */
async function envelopeAt(limit: number, over = false) {
  const file = randomBytes(await fileSizeForEnvelope(limit, KEY_A, 'kid-a', over));
  const body = Buffer.from(JSON.stringify(await encryptFile(file, KEY_A, { kid: 'kid-a' })));
  expect(over ? body.length > limit : body.length <= limit).toBe(true);
  return { file, body };
}

describe.each(EXPRESS_VERSIONS)('upload paths at their limits on $name', ({ create }) => {
  let running: Running;
  let dest: string;

  beforeAll(async () => {
    dest = await mkdtemp(join(tmpdir(), 'jwe-limits-test-'));
    const app = create();
    const small = jwe({ keys: KEYS }); // the JSON default: 100kb
    const large = jwe({ keys: KEYS, limit: '10mb' });
    // A {file} body opened by jwe() itself, then handed on by upload().
    app.post('/opened-by-jwe', small, small.upload(), describeUpload);
    app.post('/opened-by-jwe-10mb', large, large.upload(), describeUpload);
    // upload() alone, with its own default limit (10mb), in memory and on disk.
    app.post('/memory', small.upload(), describeUpload);
    app.post('/disk', small.upload({ dest }), describeUpload);
    app.use(jweErrorHandler());
    running = await listen(app);
  });
  afterAll(async () => {
    await running.close();
    await rm(dest, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const name of await storedFiles(dest)) await rm(join(dest, name), { force: true, recursive: true });
  });

  async function expectStored(path: string, file: Buffer, body: Buffer, storage: string) {
    const answer = await post(`${running.url}${path}`, ENCRYPTED, body);
    expect(answer.status).toBe(200);
    const seen = await decryptJson(JSON.parse(answer.text), KEY_A);
    expect(seen).toEqual({ size: file.length, sha256: sha256(file), storage });
  }

  async function expectRefused(path: string, body: Buffer, headers: Record<string, string> = ENCRYPTED) {
    const before = await storedFiles(dest);
    // Chunked, so the server has to count the bytes rather than trust a declared length.
    const answer = await post(`${running.url}${path}`, headers, body, { chunked: true });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error).toMatchObject({
      type: 'entity.too.large',
      code: 'ERR_JWE_TOO_LARGE',
    });
    expect(await storedFiles(dest)).toEqual(before);
  }

  it.each([
    ['/opened-by-jwe', 100 * KiB],
    ['/opened-by-jwe-10mb', 10 * MiB],
    ['/memory', 10 * MiB],
    ['/disk', 10 * MiB],
  ])(
    '%s: stores the largest encrypted file its limit (%d bytes) admits, refuses one byte more',
    async (path, limit) => {
      const under = await envelopeAt(limit);
      if (limit === 10 * MiB) expect(under.file.length).toBeGreaterThan(5.5 * MiB);
      await expectStored(path, under.file, under.body, path === '/disk' ? 'disk' : 'memory');
      const over = await envelopeAt(limit, true);
      await expectRefused(path, over.body);
    },
  );

  it('stores a file of 3.5 MiB in memory, past where the old base64 check overflowed the stack', async () => {
    const file = randomBytes(3.5 * MiB);
    const body = Buffer.from(JSON.stringify(await encryptFile(file, KEY_A, { kid: 'kid-a' })));
    await expectStored('/memory', file, body, 'memory');
    await expectStored('/opened-by-jwe-10mb', file, body, 'memory');
  });

  it.each([
    ['whitespace', 'QUJD\nREVG'],
    ['the URL alphabet', 'ab-_'],
    ['missing padding', 'QUI'],
    ['padding inside', 'QQ==QUJD'],
    ['set trailing bits', 'QUJ='],
    ['a non-ASCII character', 'QUJ\u0142'],
  ])('refuses a {file} in %s with 400 upload.invalid, on both in-memory paths', async (_what, text) => {
    const body = Buffer.from(JSON.stringify(await encryptJson({ file: text }, KEY_A, { kid: 'kid-a' })));
    for (const path of ['/memory', '/opened-by-jwe']) {
      const answer = await post(`${running.url}${path}`, ENCRYPTED, body);
      expect(answer.status).toBe(400);
      expect(await decryptJson(JSON.parse(answer.text), KEY_A)).toMatchObject({
        error: { type: 'upload.invalid', code: 'ERR_UPLOAD_INVALID' },
      });
    }
    // The same bytes, canonically encoded, go through.
    const good = Buffer.from(JSON.stringify(await encryptJson({ file: 'QUJD' }, KEY_A, { kid: 'kid-a' })));
    expect((await post(`${running.url}/memory`, ENCRYPTED, good)).status).toBe(200);
  });

  it.each([
    ['/memory', 'memory'],
    ['/disk', 'disk'],
  ])('%s: stores a plain multipart body of exactly 10 MiB, refuses one byte more', async (path, storage) => {
    const under = multipartOfSize(10 * MiB);
    const answer = await post(`${running.url}${path}`, { 'content-type': under.contentType }, under.body);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      size: under.file.length,
      sha256: sha256(under.file),
      storage,
    });
    const over = multipartOfSize(10 * MiB + 1);
    await expectRefused(path, over.body, { 'content-type': over.contentType });
  });
});
