import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decryptJson, encryptFile, encryptJson } from '@jwe-transport/codec';
import { jwe as kyJwe } from '@jwe-transport/ky-plugin';
import ky from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  joseCDecrypt,
  joseCEncrypt,
  jwcryptoDecrypt,
  jwcryptoEncrypt,
} from '../../../test-vectors/peers/index.mjs';
import { type RunningService, startService } from '../src/index.js';

const KEY = 'svc-shared-key-1';
const OTHER_KEY = 'svc-shared-key-2';
const TOKEN = 'test-token-123';
const REGISTRATION = '/abdm/na/v1/registration/aadhaar/init';
const DOCS = '/mr/api/v2/docs';
const auth = { authorization: `Bearer ${TOKEN}` };
const utf8 = new TextEncoder();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000)]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let service: RunningService;
let docsDir: string;

beforeAll(async () => {
  docsDir = await mkdtemp(join(tmpdir(), 'jwe-service-test-'));
  service = await startService({
    keys: { 'kid-1': KEY, 'kid-2': OTHER_KEY },
    tokens: ['another-token', TOKEN],
    port: 0,
    docsDir,
    uploadLimit: '5mb',
    workflow: { clients: {} },
    generated: {},
  });
});
afterAll(async () => {
  await service.close();
  await rm(docsDir, { recursive: true, force: true });
});

function postEnvelope(path: string, envelope: unknown, headers: Record<string, string> = auth) {
  return fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', ...headers },
    body: typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
  });
}

describe('bearer tokens (spec 5)', () => {
  it('refuses missing and wrong tokens on every route before reading the body', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${TOKEN}` },
      { auth: 'nope' },
      // Both forms, naming different tokens: neither wins.
      { authorization: `Bearer ${TOKEN}`, auth: 'nope' },
    ]) {
      const response = await postEnvelope(
        REGISTRATION,
        await encryptJson({}, KEY, { kid: 'kid-1' }),
        headers,
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await response.json()).error).toEqual({ code: 'ERR_UNAUTHORIZED', msg: expect.any(String) });
    }
    expect((await fetch(`${service.url}${DOCS}/x`)).status).toBe(401);
    expect(
      (await fetch(`${service.url}${DOCS}/x`, { headers: { authorization: 'Bearer another-token' } })).status,
    ).toBe(404);
  });

  it('answers an unknown endpoint with a 404 whose error body carries a code, like every other error', async () => {
    const response = await fetch(`${service.url}/no/such/endpoint`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { type: 'not.found', code: 'ERR_NOT_FOUND', message: 'No such endpoint.' },
    });
  });
});

describe('registration initiation (spec 4.2)', () => {
  it('answers a python-jwcrypto envelope with an encrypted transaction id that jwcrypto decrypts', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8.encode('{"aadhaar_number": "123412341234"}'), {
      kid: 'kid-1',
    });
    const response = await postEnvelope(REGISTRATION, envelope);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBe('JWE');
    const reply = await response.json();
    expect(reply.kid).toBe('kid-1');
    const [result] = await jwcryptoDecrypt(KEY, [reply]);
    if (!result?.ok) throw new Error(`jwcrypto could not decrypt the answer: ${JSON.stringify(result)}`);
    const answer = JSON.parse(new TextDecoder().decode(result.plaintext));
    expect(answer.txn_id).toMatch(UUID);
    expect(answer.status).toBe('otp_sent');
    expect(JSON.stringify(answer)).not.toContain('123412341234');
  });

  it('works from curl with a captured envelope (made by the jose C tool)', async () => {
    const envelope = await joseCEncrypt(OTHER_KEY, utf8.encode('{"aadhaar_number":"999911112222"}'), {
      kid: 'kid-2',
    });
    const dir = await mkdtemp(join(tmpdir(), 'jwe-curl-'));
    try {
      await writeFile(join(dir, 'envelope.json'), JSON.stringify(envelope));
      const { stdout } = await promisify(execFile)('curl', [
        '-sS',
        '-X',
        'POST',
        `${service.url}${REGISTRATION}`,
        '-H',
        `Authorization: Bearer ${TOKEN}`,
        '-H',
        'Content-Type: application/json',
        '-H',
        'X-Encryption: JWE',
        '--data-binary',
        `@${join(dir, 'envelope.json')}`,
      ]);
      const answer = JSON.parse(new TextDecoder().decode(await joseCDecrypt(OTHER_KEY, JSON.parse(stdout))));
      expect(answer.txn_id).toMatch(UUID);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers an invalid number with an encrypted 400 validation.failed', async () => {
    for (const aadhaar_number of ['12341234123', '12341234123x', 123412341234]) {
      const response = await postEnvelope(
        REGISTRATION,
        await encryptJson({ aadhaar_number }, KEY, { kid: 'kid-1' }),
      );
      expect(response.status).toBe(400);
      expect(await decryptJson(await response.json(), KEY)).toMatchObject({
        error: { type: 'validation.failed' },
      });
    }
  });

  it('refuses a plain body with 415 jwe.required', async () => {
    const response = await fetch(`${service.url}${REGISTRATION}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: '{"aadhaar_number":"123412341234"}',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error.type).toBe('jwe.required');
  });

  it('works end to end from ky with the ky plugin', async () => {
    const api = ky.create({
      prefixUrl: service.url,
      headers: auth,
      ...kyJwe({ key: OTHER_KEY, kid: 'kid-2' }),
    });
    const answer = await api
      .post(REGISTRATION.slice(1), { json: { aadhaar_number: '123456789012' } })
      .json<{ txn_id: string }>();
    expect(answer.txn_id).toMatch(UUID);
  });
});

describe('document upload (spec 4.3)', () => {
  async function expectStored(record: Record<string, unknown>, bytes: Uint8Array) {
    expect(record.document_id).toMatch(UUID);
    expect(record.size).toBe(bytes.length);
    expect(record.sha256).toBe(sha256(bytes));
    expect(sha256(await readFile(join(docsDir, String(record.document_id))))).toBe(sha256(bytes));
    const metadata = await fetch(`${service.url}${DOCS}/${record.document_id}`, { headers: auth });
    expect(await metadata.json()).toEqual(record);
  }

  it('keeps a plain multipart upload with its task', async () => {
    const form = new FormData();
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'scan.pdf');
    const response = await fetch(`${service.url}${DOCS}?task=pii`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBeNull();
    const record = await response.json();
    expect(record).toMatchObject({
      task: 'pii',
      mimetype: 'application/pdf',
      originalname: 'scan.pdf',
      encrypted: false,
    });
    await expectStored(record, PDF);
  });

  it('keeps an encrypted upload from python-jwcrypto and answers it encrypted', async () => {
    const payload = JSON.stringify({ file: PDF.toString('base64') });
    const [envelope] = await jwcryptoEncrypt(KEY, utf8.encode(payload), { kid: 'kid-1' });
    const response = await postEnvelope(`${DOCS}?task=smart`, envelope);
    expect(response.status).toBe(200);
    const record = await decryptJson<Record<string, unknown>>(await response.json(), KEY);
    expect(record).toMatchObject({ task: 'smart', mimetype: 'application/pdf', encrypted: true });
    await expectStored(record, PDF);
  });

  it('keeps an encrypted upload sent by ky with the ky plugin', async () => {
    const api = ky.create({ prefixUrl: service.url, headers: auth, ...kyJwe({ key: KEY, kid: 'kid-1' }) });
    const bytes = randomBytes(50_000);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'audio.bin');
    const record = await api
      .post(`${DOCS.slice(1)}?task=classification`, { body: form })
      .json<Record<string, unknown>>();
    expect(record).toMatchObject({ task: 'classification', encrypted: true });
    await expectStored(record, bytes);
  });

  it('refuses an unknown task before reading the upload', async () => {
    const response = await postEnvelope(
      `${DOCS}?task=everything`,
      await encryptFile(PDF, KEY, { kid: 'kid-1' }),
    );
    expect(response.status).toBe(400);
    const error = (await response.json()).error;
    expect(error).toMatchObject({ type: 'validation.failed' });
    expect(error.message).toContain('smart');
  });

  it('refuses an upload over the limit with 413', async () => {
    const response = await postEnvelope(
      DOCS,
      await encryptFile(randomBytes(4 * 2 ** 20), KEY, { kid: 'kid-1' }),
    );
    expect(response.status).toBe(413);
    expect((await response.json()).error.type).toBe('entity.too.large');
  });
});
