import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { harEntry } from '@jwe-transport/test-support/har';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseCEncrypt, jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import { KEY, OTHER_KEY, runCli, tempDir, utf8 } from './helpers/run-cli.js';

const BASE = 'https://api.example.test';
let tmp: Awaited<ReturnType<typeof tempDir>>;
let harPath: string;
let wav: Buffer;

/** An entry of the recorded HAR, at a path of the API. */
const entry = (
  method: string,
  path: string,
  request: Parameters<typeof harEntry>[2],
  response: Parameters<typeof harEntry>[3],
) => harEntry(method, `${BASE}${path}`, request, response);

const jwe = [
  { name: 'Content-Type', value: 'application/json' },
  { name: 'x-encryption', value: 'JWE' },
];
const json = [{ name: 'Content-Type', value: 'application/json' }];

beforeAll(async () => {
  tmp = await tempDir();
  wav = Buffer.concat([Buffer.from('RIFF\x24\x08\x00\x00WAVEfmt '), Buffer.alloc(2000, 3)]);
  const [init] = await jwcryptoEncrypt(KEY, utf8('{"aadhaar_number":"123412341234"}'), { kid: 'k1' });
  const initResponse = await joseCEncrypt(KEY, utf8('{"txn_id":"t-77","status":"otp_sent"}'));
  const { protected: _dropped, ...headerless } = initResponse;
  const [upload] = await jwcryptoEncrypt(KEY, utf8(JSON.stringify({ file: wav.toString('base64') })), {
    kid: 'k1',
  });
  const [foreign] = await jwcryptoEncrypt(OTHER_KEY, utf8('{"secret":"not yours"}'));
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'Firefox', version: '133.0' },
      pages: [],
      entries: [
        entry(
          'POST',
          '/connect-auth/v1/account/login',
          { headers: json, body: '{"client_id":"c","client_secret":"s"}' },
          {
            status: 200,
            headers: json,
            body: '{"access_token":"a","refresh_token":"r","expires_in":1800}',
          },
        ),
        entry(
          'POST',
          '/abdm/na/v1/registration/aadhaar/init',
          { headers: jwe, body: JSON.stringify(init) },
          {
            status: 200,
            headers: json,
            body: JSON.stringify(headerless),
            base64: true,
          },
        ),
        entry('GET', '/health', { headers: [] }, { status: 200, headers: json, body: '{"ok":true}' }),
        entry(
          'POST',
          '/mr/api/v2/docs?task=smart',
          { headers: jwe, body: JSON.stringify(upload) },
          {
            status: 201,
            headers: json,
            body: '{"document_id":"d-1"}',
          },
        ),
        entry(
          'POST',
          '/abdm/na/v1/registration/aadhaar/init',
          { headers: jwe, body: JSON.stringify(foreign) },
          {
            status: 200,
            headers: json,
            body: '{"error":"decryption failed"}',
          },
        ),
      ],
    },
  };
  harPath = tmp.path('session.har');
  await writeFile(harPath, JSON.stringify(har, null, 2));
});
afterAll(async () => {
  await tmp.cleanup();
});

describe('decrypt: HAR files with plain and encrypted entries', () => {
  it('decrypts every encrypted request and response, skips plain ones, and exits 1 for the one that fails', async () => {
    const result = await runCli(['decrypt', harPath, '--json'], { env: { JWE_KEY: KEY } });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ ok: false, input: 'har', entries: 5 });
    const seen = report.bodies.map((b: { entry: number; side: string; ok: boolean }) => [
      b.entry,
      b.side,
      b.ok,
    ]);
    expect(seen).toEqual([
      [2, 'request', true],
      [2, 'response', true],
      [4, 'request', true],
      [5, 'request', false],
    ]);
    const [init, initResponse, upload, foreign] = report.bodies;
    expect(init).toMatchObject({
      method: 'POST',
      url: `${BASE}/abdm/na/v1/registration/aadhaar/init`,
      status: 200,
      marked: true,
      kid: 'k1',
      payload: { type: 'json', value: { aadhaar_number: '123412341234' } },
    });
    expect(initResponse).toMatchObject({
      marked: false,
      payload: { value: { txn_id: 't-77', status: 'otp_sent' } },
    });
    expect(upload).toMatchObject({
      status: 201,
      payload: { type: 'file', mediaType: 'audio/wav', size: wav.length },
    });
    expect(foreign).toMatchObject({ ok: false, error: { code: 'ERR_JWE_DECRYPTION_FAILED' } });
  });

  it('shows method, URL and status with each decrypted body for people', async () => {
    const result = await runCli(['decrypt', harPath], { env: { JWE_KEY: KEY } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('HAR: 5 entries, 4 encrypted bodies, 1 failed');
    expect(result.stdout).toContain(`#2 POST ${BASE}/abdm/na/v1/registration/aadhaar/init -> 200 (request)`);
    expect(result.stdout).toContain('"aadhaar_number": "123412341234"');
    expect(result.stdout).toContain(`#4 POST ${BASE}/mr/api/v2/docs?task=smart -> 201 (request)`);
    expect(result.stdout).toContain('WAV audio');
    expect(result.stdout).toContain('#5 POST');
    expect(result.stdout).toContain('FAILED (ERR_JWE_DECRYPTION_FAILED)');
    expect(result.stdout).not.toContain('client_secret');
    expect(result.stdout).not.toContain('not yours');
  });

  it('saves file uploads into the --out directory', async () => {
    const dir = tmp.path('uploads');
    await mkdir(dir);
    const result = await runCli(['decrypt', harPath, '--out', dir], { env: { JWE_KEY: KEY } });
    expect(result.code).toBe(1);
    expect(await readdir(dir)).toEqual(['entry-4-request.wav']);
    expect(Buffer.compare(await readFile(tmp.path('uploads/entry-4-request.wav')), wav)).toBe(0);
  });

  it('exits 0 when every encrypted body decrypts (both keys given as a list)', async () => {
    const keyFile = tmp.path('keys.txt');
    await writeFile(keyFile, `k1=${KEY}\nlegacy=${OTHER_KEY}\n`);
    const result = await runCli(['decrypt', harPath, '--key-file', keyFile, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).bodies[3].payload.value).toEqual({ secret: 'not yours' });
  });

  it('says, in text and in --json, when a kid named another key than the one that opened the body', async () => {
    const keyFile = tmp.path('rotation.txt');
    await writeFile(keyFile, `old=${OTHER_KEY}\nnew=${KEY}\n`);
    const [misnamed] = await jwcryptoEncrypt(KEY, utf8('{"a":1}'), { kid: 'old' });
    const [named] = await jwcryptoEncrypt(KEY, utf8('{"a":2}'), { kid: 'new' });
    const rotated = tmp.path('rotation.har');
    await writeFile(
      rotated,
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [
            entry('POST', '/misnamed', { headers: jwe, body: JSON.stringify(misnamed) }, { status: 204 }),
            entry('POST', '/named', { headers: jwe, body: JSON.stringify(named) }, { status: 204 }),
          ],
        },
      }),
    );
    const warning =
      'The envelope names kid "old" but authenticated with the key listed as "new": ' +
      'the sender sealed it with another key than the one its kid names.';

    const text = await runCli(['decrypt', rotated, '--key-file', keyFile]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'HAR: 2 entries, 2 encrypted bodies, 0 failed, 1 opened with another key than their kid names',
    );
    const [first, second] = text.stdout.split(`#2 POST ${BASE}/named`);
    expect(first).toContain(`#1 POST ${BASE}/misnamed -> 204 (request) kid "old"\nwarning: ${warning}`);
    expect(second).not.toContain('warning');

    const json = await runCli(['decrypt', rotated, '--key-file', keyFile, '--json']);
    expect(json.code).toBe(0);
    const [misnamedBody, namedBody] = JSON.parse(json.stdout).bodies;
    expect(misnamedBody).toMatchObject({ ok: true, kid: 'old', keyKid: 'new', kidMismatch: true, warning });
    expect(namedBody).toMatchObject({
      ok: true,
      kid: 'new',
      keyKid: 'new',
      kidMismatch: false,
      warning: null,
    });
  });

  it('says so, exit 2, when a HAR file has nothing encrypted', async () => {
    const plain = tmp.path('plain.har');
    await writeFile(
      plain,
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [entry('GET', '/x', { headers: [] }, { status: 200, headers: json, body: '{}' })],
        },
      }),
    );
    const result = await runCli(['decrypt', plain], { env: { JWE_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ERR_NOTHING_TO_DECRYPT');
  });

  it('inspects each encrypted body of a HAR file', async () => {
    const result = await runCli(['inspect', harPath, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.bodies).toHaveLength(4);
    const codes = report.bodies[1].report.diagnostics.map((d: { code: string }) => d.code);
    expect(codes).toContain('PROTECTED_MISSING');
  });
});
