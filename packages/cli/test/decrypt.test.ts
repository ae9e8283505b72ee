import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseCEncrypt, jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import { KEY, OTHER_KEY, runCli, tempDir, utf8 } from './helpers/run-cli.js';

const body = { aadhaar_number: '123412341234', note: 'ünïcode ✓' };
const env = { JWE_KEY: KEY };
let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

describe('decrypt: envelopes from independent peers', () => {
  it('pretty-prints the JSON body of a jwcrypto envelope and names its kid', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8(JSON.stringify(body)), { kid: 'key-2024' });
    const result = await runCli(['decrypt'], { input: JSON.stringify(envelope), env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`);
    expect(result.stderr).toContain('kid "key-2024"');
  });

  it('decrypts jose C output in flattened form (with its empty encrypted_key) and in compact form', async () => {
    const flattened = await joseCEncrypt(KEY, utf8(JSON.stringify(body)), { raw: true });
    expect(flattened.encrypted_key).toBe('');
    const file = tmp.path('jose.json');
    await writeFile(file, JSON.stringify(flattened));
    const fromFile = await runCli(['decrypt', file, '--json'], { env });
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({
      ok: true,
      headerSource: 'protected',
      payload: { type: 'json', value: body },
    });

    const compact = `${flattened.protected}..${flattened.iv}.${flattened.ciphertext}.${flattened.tag}`;
    const fromCompact = await runCli(['decrypt', '-', '--json'], { input: `${compact}\n`, env });
    expect(fromCompact.code).toBe(0);
    expect(JSON.parse(fromCompact.stdout)).toMatchObject({ input: 'compact JWE', payload: { value: body } });
  });

  it('saves a file upload to --out and describes it without --out', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 7)]);
    const payload = JSON.stringify({ file: pdf.toString('base64') });
    const [envelope] = await jwcryptoEncrypt(KEY, utf8(payload), { kid: 'k1' });
    const input = JSON.stringify(envelope);

    const described = await runCli(['decrypt', '--json'], { input, env });
    expect(described.code).toBe(0);
    const report = JSON.parse(described.stdout);
    expect(report.payload).toMatchObject({ type: 'file', size: pdf.length, mediaType: 'application/pdf' });
    expect(report.payload.sha256).toMatch(/^[0-9a-f]{64}$/);

    const human = await runCli(['decrypt'], { input, env });
    expect(human.stdout).toContain('PDF document');
    expect(human.stdout).toContain('5,009 bytes');

    const out = tmp.path('upload.pdf');
    const saved = await runCli(['decrypt', '--out', out], { input, env });
    expect(saved.code).toBe(0);
    expect(Buffer.compare(await readFile(out), pdf)).toBe(0);

    const again = await runCli(['decrypt', '--out', out], { input, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
    const forced = await runCli(['decrypt', '--out', out, '--force', '--raw'], { input, env });
    expect(forced.code).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(payload);
  });

  it('reads a response envelope whose protected member was dropped after the tag was computed', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{"status":"success"}'));
    const { protected: _dropped, ...response } = envelope as Record<string, unknown>;
    const result = await runCli(['decrypt', '--json'], { input: JSON.stringify(response), env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      headerSource: 'assumed-compact',
      payload: { value: { status: 'success' } },
    });
    const human = await runCli(['decrypt'], { input: JSON.stringify(response), env });
    expect(human.stderr).toContain('no protected header');
  });

  it('takes a captured HTTP message and an envelope quoted as a JSON string from a log', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8(JSON.stringify(body)), { kid: 'k1' });
    const text = JSON.stringify(envelope);
    const http = `POST /abdm/na/v1/registration/aadhaar/init HTTP/1.1\r\nHost: api.example\r\nX-Encryption: JWE\r\nContent-Type: application/json\r\nContent-Length: ${text.length}\r\n\r\n${text}`;
    const fromHttp = await runCli(['decrypt'], { input: http, env });
    expect(fromHttp.code).toBe(0);
    expect(JSON.parse(fromHttp.stdout)).toEqual(body);
    expect(fromHttp.stderr).toContain('POST /abdm/na/v1/registration/aadhaar/init');
    const chunked = `HTTP/1.1 200 OK\r\nX-Encryption: JWE\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n${text.slice(0, 16)}\r\n${(text.length - 16).toString(16)}\r\n${text.slice(16)}\r\n0\r\n\r\n`;
    const fromChunked = await runCli(['decrypt', '--json'], { input: chunked, env });
    expect(fromChunked.code).toBe(0);
    expect(JSON.parse(fromChunked.stdout)).toMatchObject({
      input: 'HTTP message',
      startLine: 'HTTP/1.1 200 OK',
      payload: { value: body },
    });

    const quoted = await runCli(['decrypt'], { input: JSON.stringify(text), env });
    expect(quoted.code).toBe(0);
    expect(JSON.parse(quoted.stdout)).toEqual(body);
  });

  it('picks the key by kid from a kid=key list, and tries the others when the kid is wrong', async () => {
    const keyFile = tmp.path('keys.txt');
    await writeFile(keyFile, `# rotation\nold=${OTHER_KEY}\nnew=${KEY}\n`);
    const [named] = await jwcryptoEncrypt(KEY, utf8('{"a":1}'), { kid: 'new' });
    const byKid = await runCli(['decrypt', '--key-file', keyFile, '--json'], {
      input: JSON.stringify(named),
    });
    expect(byKid.code).toBe(0);
    expect(JSON.parse(byKid.stdout)).toMatchObject({
      kid: 'new',
      keyKid: 'new',
      payload: { value: { a: 1 } },
    });

    const [mislabelled] = await jwcryptoEncrypt(KEY, utf8('{"a":2}'), { kid: 'old' });
    const tried = await runCli(['decrypt', '--key-file', keyFile], { input: JSON.stringify(mislabelled) });
    expect(tried.code).toBe(0);
    expect(JSON.parse(tried.stdout)).toEqual({ a: 2 });
    expect(tried.stderr).toContain('names kid "old" but authenticated with the key listed as "new"');
  });
});

describe('decrypt: failures', () => {
  it('exits 1 with a useful message for the wrong key, and never prints the key', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8(JSON.stringify(body)));
    const result = await runCli(['decrypt'], {
      input: JSON.stringify(envelope),
      env: { JWE_KEY: OTHER_KEY },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('ERR_JWE_DECRYPTION_FAILED');
    expect(result.stderr).toContain('the key is not the one the sender used');
    expect(result.stderr).toContain('jwe-transport inspect');
    expect(result.stderr).not.toContain(OTHER_KEY);
    expect(result.stderr).not.toContain(KEY);

    const json = await runCli(['decrypt', '--json'], {
      input: JSON.stringify(envelope),
      env: { JWE_KEY: OTHER_KEY },
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'ERR_JWE_DECRYPTION_FAILED', exitCode: 1 },
    });
  });

  it('exits 1 when one ciphertext character was changed', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8(JSON.stringify(body)));
    const ciphertext = String(envelope!.ciphertext);
    const flipped = `${ciphertext[0] === 'A' ? 'B' : 'A'}${ciphertext.slice(1)}`;
    const result = await runCli(['decrypt'], {
      input: JSON.stringify({ ...envelope, ciphertext: flipped }),
      env,
    });
    expect(result.code).toBe(1);
  });

  it('exits 2 for input that is not an envelope', async () => {
    const plain = await runCli(['decrypt'], { input: '{"aadhaar_number":"1"}', env });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('ERR_NOT_AN_ENVELOPE');
    const truncated = await runCli(['decrypt'], { input: '{"protected":"eyJhbGciOiJkaXIi', env });
    expect(truncated.code).toBe(2);
    expect(truncated.stderr).toContain('truncated');

    const plainHttp =
      'POST /connect-auth/v1/account/login HTTP/1.1\r\nX-Encryption: JWE\r\n\r\n{"client_secret":"s3cr3t-value"';
    for (const command of ['decrypt', 'inspect', 'compact']) {
      const result = await runCli([command], { input: plainHttp, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('is not an envelope although the message is marked X-Encryption: JWE');
      expect(result.stderr).not.toContain('s3cr3t-value');
    }
  });
});
