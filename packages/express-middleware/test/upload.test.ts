import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { decryptJson, encryptFile, encryptFileStream } from '@jwe-transport/codec';
import { jwe, jweErrorHandler, jweUpload, uploadedFile } from '@jwe-transport/express-middleware';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import {
  EXPRESS_VERSIONS,
  joseDecryptJson,
  joseEncrypt,
  KEY_A,
  KEY_B,
  KEYS,
  listen,
  postEncrypted,
  type Running,
  storedFiles,
} from './helpers.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3000)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5000)]);
const filePayload = (bytes: Uint8Array) => JSON.stringify({ file: Buffer.from(bytes).toString('base64') });

/** What a route saw, read back from memory or from disk, so tests compare real bytes. */
async function describeUpload(req: Request, res: Response) {
  const file = uploadedFile(req);
  const bytes = file.buffer ?? (await readFile(file.path ?? ''));
  res.json({
    fieldname: file.fieldname,
    originalname: file.originalname ?? null,
    mimetype: file.mimetype,
    size: file.size,
    sha256: sha256(bytes),
    storage: file.buffer ? 'memory' : 'disk',
    inDest: file.destination === undefined ? null : dirname(file.destination),
    body: req.body,
    jwe: req.jwe,
  });
}

function multipart(url: string, parts: Array<[string, Blob | string, string?]>) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  return fetch(url, { method: 'POST', body: form });
}

describe.each(EXPRESS_VERSIONS)('jweUpload() on $name', ({ create }) => {
  let running: Running;
  let dest: string;

  beforeAll(async () => {
    dest = await mkdtemp(join(tmpdir(), 'jwe-upload-test-'));
    const app = create();
    const transport = jwe({ keys: KEYS });
    app.post('/memory', transport.upload(), describeUpload);
    app.post('/disk', jweUpload({ keys: KEYS, dest, limit: '1mb' }), describeUpload);
    app.post('/encrypted-only', transport.upload({ requireEncryption: true }), describeUpload);
    // The JSON middleware mounted first takes small encrypted uploads apart itself.
    app.post('/after-json', transport, transport.upload(), describeUpload);
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

  it('takes a plain multipart upload into memory with its name, declared type and other fields', async () => {
    const response = await multipart(`${running.url}/memory`, [
      ['note', 'hello'],
      ['file', new Blob([PDF], { type: 'application/pdf' }), 'report.pdf'],
    ]);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toMatchObject({
      fieldname: 'file',
      originalname: 'report.pdf',
      mimetype: 'application/pdf',
      size: PDF.length,
      sha256: sha256(PDF),
      storage: 'memory',
      body: { note: 'hello' },
      jwe: { encrypted: false },
    });
  });

  it('streams a plain multipart upload to disk and sniffs an undeclared type', async () => {
    const response = await multipart(`${running.url}/disk`, [['file', new Blob([PNG]), 'picture']]);
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer).toMatchObject({
      mimetype: 'image/png',
      size: PNG.length,
      sha256: sha256(PNG),
      storage: 'disk',
      inDest: dest,
    });
    expect(await storedFiles(dest)).toHaveLength(1);
  });

  it('takes an npm jose file envelope into memory and answers encrypted', async () => {
    const response = await postEncrypted(
      `${running.url}/memory`,
      await joseEncrypt(KEY_B, filePayload(PDF), 'kid-b'),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBe('JWE');
    const answer = await joseDecryptJson(KEY_B, await response.json());
    expect(answer).toMatchObject({
      fieldname: 'file',
      originalname: null,
      mimetype: 'application/pdf',
      size: PDF.length,
      sha256: sha256(PDF),
      storage: 'memory',
      jwe: { encrypted: true, kid: 'kid-b' },
    });
  });

  it('streams a python-jwcrypto file envelope to disk through the streaming decoder', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY_A, Buffer.from(filePayload(PNG)), { kid: 'kid-a' });
    const response = await postEncrypted(`${running.url}/disk`, envelope);
    expect(response.status).toBe(200);
    const answer = await decryptJson(await response.json(), KEY_A);
    expect(answer).toMatchObject({
      mimetype: 'image/png',
      size: PNG.length,
      sha256: sha256(PNG),
      storage: 'disk',
    });
    expect(await storedFiles(dest)).toHaveLength(1);
  });

  it('streams our own streaming envelope (kid after the tag) to disk', async () => {
    const bytes = randomBytes(300_000);
    const envelope = await new Response(encryptFileStream([bytes], KEY_B, { kid: 'kid-b' })).text();
    const response = await postEncrypted(`${running.url}/disk`, envelope);
    expect(response.status).toBe(200);
    expect(await decryptJson(await response.json(), KEY_B)).toMatchObject({
      size: bytes.length,
      sha256: sha256(bytes),
      jwe: { kid: 'kid-b' },
    });
    expect(await storedFiles(dest)).toHaveLength(1);
  });

  it('takes the file from a body the JSON middleware already decrypted', async () => {
    const response = await postEncrypted(
      `${running.url}/after-json`,
      await encryptFile(PDF, KEY_A, { kid: 'kid-a' }),
    );
    expect(response.status).toBe(200);
    expect(await decryptJson(await response.json(), KEY_A)).toMatchObject({
      sha256: sha256(PDF),
      mimetype: 'application/pdf',
    });
  });

  it('leaves no file behind when an encrypted upload is tampered with', async () => {
    const envelope = await joseEncrypt(KEY_A, filePayload(randomBytes(200_000)), 'kid-a');
    const ciphertext = Buffer.from(envelope.ciphertext as string, 'base64url');
    const middle = ciphertext.length >> 1;
    ciphertext[middle] = (ciphertext[middle] ?? 0) ^ 0x80;
    const response = await postEncrypted(`${running.url}/disk`, {
      ...envelope,
      ciphertext: ciphertext.toString('base64url'),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.type).toBe('jwe.decrypt.failed');
    expect(await storedFiles(dest)).toEqual([]);
  });

  it('answers 413 for an upload over the limit, leaves no file and keeps serving', async () => {
    const big = new Blob([randomBytes(1_200_000)]);
    const response = await multipart(`${running.url}/disk`, [['file', big, 'big.bin']]).catch(
      (error: unknown) => error,
    );
    // The server closes the connection after answering; a client still sending may see the close first.
    if (response instanceof Response) {
      expect(response.status).toBe(413);
      expect((await response.json()).error.type).toBe('entity.too.large');
    }
    expect(await storedFiles(dest)).toEqual([]);
    const encrypted = await postEncrypted(
      `${running.url}/disk`,
      await encryptFile(randomBytes(700_000), KEY_A, { kid: 'kid-a' }),
    );
    expect(encrypted.status).toBe(413);
    expect(await storedFiles(dest)).toEqual([]);
    expect((await multipart(`${running.url}/disk`, [['file', new Blob([PDF]), 'ok.pdf']])).status).toBe(200);
  });

  it('answers 400 upload.invalid for a wrong field, no file, or a body that is neither form nor envelope', async () => {
    const wrongField = await multipart(`${running.url}/disk`, [['document', new Blob([PDF]), 'a.pdf']]);
    expect(wrongField.status).toBe(400);
    expect((await wrongField.json()).error).toMatchObject({
      type: 'upload.invalid',
      code: 'ERR_UPLOAD_INVALID',
    });
    const noFile = await multipart(`${running.url}/disk`, [['note', 'no file here']]);
    expect((await noFile.json()).error.type).toBe('upload.invalid');
    const json = await fetch(`${running.url}/disk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await json.json()).error.type).toBe('upload.invalid');
    const notAFile = await postEncrypted(
      `${running.url}/memory`,
      await joseEncrypt(KEY_A, '{"file":"not base64!"}', 'kid-a'),
    );
    expect(notAFile.status).toBe(400);
    expect(await joseDecryptJson(KEY_A, await notAFile.json())).toMatchObject({
      error: { type: 'upload.invalid' },
    });
    expect(await storedFiles(dest)).toEqual([]);
  });

  it('refuses plain uploads with 415 jwe.required where encryption is required', async () => {
    const plain = await multipart(`${running.url}/encrypted-only`, [['file', new Blob([PDF]), 'a.pdf']]);
    expect(plain.status).toBe(415);
    expect((await plain.json()).error.type).toBe('jwe.required');
    const encrypted = await postEncrypted(
      `${running.url}/encrypted-only`,
      await encryptFile(PDF, KEY_A, { kid: 'kid-a' }),
    );
    expect(encrypted.status).toBe(200);
  });
});
