import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseCDecrypt, jwcryptoDecrypt } from '../../../test-vectors/peers/index.mjs';
import { KEY, OTHER_KEY, runCli, tempDir } from './helpers/run-cli.js';

const env = { JWE_KEY: KEY };
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

describe('encrypt: our envelopes decrypt with independent peers', () => {
  it('encrypts a JSON body byte for byte, with the kid top-level; jwcrypto and jose C read it', async () => {
    const body = '{"aadhaar_number": "123412341234"}';
    const result = await runCli(['encrypt', '--kid', 'k1'], { input: body, env });
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(Object.keys(envelope)).toEqual(['kid', 'protected', 'iv', 'ciphertext', 'tag']);
    expect(envelope.kid).toBe('k1');
    const [fromPython] = await jwcryptoDecrypt(KEY, [envelope]);
    expect(fromPython).toMatchObject({ ok: true });
    expect(text((fromPython as { plaintext: Uint8Array }).plaintext)).toBe(body);
    expect(text(await joseCDecrypt(KEY, envelope))).toBe(body);
  });

  it('wraps a file as {"file": base64} with --file', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const path = tmp.path('audio.bin');
    await writeFile(path, bytes);
    const result = await runCli(['encrypt', '--file', path], { env });
    expect(result.code).toBe(0);
    const plaintext = JSON.parse(text(await joseCDecrypt(KEY, JSON.parse(result.stdout))));
    expect(Object.keys(plaintext)).toEqual(['file']);
    expect(Buffer.compare(Buffer.from(plaintext.file, 'base64'), bytes)).toBe(0);
  });

  it('prints the compact form with --compact, which jose C decrypts', async () => {
    const result = await runCli(['encrypt', '--compact', '--kid', 'k1'], { input: '{"a":[1,2,3]}', env });
    expect(result.code).toBe(0);
    const compact = result.stdout.trim();
    expect(compact).toMatch(/^eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0\.\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(text(await joseCDecrypt(KEY, compact))).toBe('{"a":[1,2,3]}');
    expect(result.stderr).toContain('compact JWE has no place for the kid');
  });

  it('chooses the key from a kid=key list with --kid', async () => {
    const keyFile = tmp.path('keys');
    await writeFile(keyFile, `a=${OTHER_KEY},b=${KEY}`);
    const result = await runCli(['encrypt', '--key-file', keyFile, '--kid', 'b'], { input: '{"x":true}' });
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.kid).toBe('b');
    expect(text(await joseCDecrypt(KEY, envelope))).toBe('{"x":true}');

    const unchosen = await runCli(['encrypt', '--key-file', keyFile], { input: '{"x":true}' });
    expect(unchosen.code).toBe(2);
    expect(unchosen.stderr).toContain('choose one with --kid');
  });

  it('encrypts raw bytes with --raw and refuses non-JSON input by default', async () => {
    const notJson = await runCli(['encrypt'], { input: 'hello, not json', env });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('not valid JSON');
    const raw = await runCli(['encrypt', '--raw'], { input: 'hello, not json', env });
    expect(raw.code).toBe(0);
    expect(text(await joseCDecrypt(KEY, JSON.parse(raw.stdout)))).toBe('hello, not json');
  });

  it('round-trips through our own decrypt, including --out files', async () => {
    const out = tmp.path('envelope.json');
    const encrypted = await runCli(['encrypt', '--out', out], { input: '{"round":"trip"}', env });
    expect(encrypted.code).toBe(0);
    expect(encrypted.stdout).toBe('');
    const decrypted = await runCli(['decrypt', out, '--json'], { env });
    expect(JSON.parse(decrypted.stdout).payload.value).toEqual({ round: 'trip' });
  });
});

describe('compact and expand', () => {
  it('converts both ways, keeps the bytes jose C authenticates, and reports the dropped kid', async () => {
    const encrypted = await runCli(['encrypt', '--kid', 'k7'], { input: '{"n":7}', env });
    const envelope = JSON.parse(encrypted.stdout);

    const compact = await runCli(['compact'], { input: encrypted.stdout });
    expect(compact.code).toBe(0);
    expect(compact.stdout.trim()).toBe(
      `${envelope.protected}..${envelope.iv}.${envelope.ciphertext}.${envelope.tag}`,
    );
    expect(compact.stderr).toContain('"k7"');
    expect(text(await joseCDecrypt(KEY, compact.stdout.trim()))).toBe('{"n":7}');

    const compactJson = await runCli(['compact', '--json'], { input: encrypted.stdout });
    expect(JSON.parse(compactJson.stdout)).toEqual({ ok: true, compact: compact.stdout.trim(), kid: 'k7' });

    const expanded = await runCli(['expand', '--kid', 'k7'], { input: compact.stdout });
    expect(expanded.code).toBe(0);
    expect(JSON.parse(expanded.stdout)).toEqual(envelope);
  });

  it('refuses to compact an envelope without a protected header', async () => {
    const encrypted = JSON.parse((await runCli(['encrypt'], { input: '{}', env })).stdout);
    delete encrypted.protected;
    const result = await runCli(['compact'], { input: JSON.stringify(encrypted) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('protected header');
  });
});
