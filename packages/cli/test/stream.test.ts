import { createHash } from 'node:crypto';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseCDecrypt, jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import { KEY, OTHER_KEY, runCli, tempDir } from './helpers/run-cli.js';

/*
 * Envelopes past the CLI's streaming threshold, through the built binary. The 500 MiB round trip
 * with its memory bound is in the large suite (test/large/stream.large.test.ts, `pnpm test:large`).
 */

let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

describe('envelopes over the 8 MiB threshold take the streaming path', () => {
  const file = Buffer.alloc(12 * 2 ** 20);
  for (let i = 0; i < file.length; i += 4) file.writeUInt32LE((i * 2654435761) >>> 0, i);
  const fileSha256 = createHash('sha256').update(file).digest('hex');

  it('streams our envelope for a 12 MiB file; jose C decrypts it', async () => {
    const path = tmp.path('medium.bin');
    await writeFile(path, file);
    const result = await runCli(['encrypt', '--file', path, '--kid', 'k1'], { env: { JWE_KEY: KEY } });
    expect(result.code, result.stderr).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.kid).toBe('k1');
    const payload = JSON.parse(Buffer.from(await joseCDecrypt(KEY, envelope)).toString('utf8'));
    expect(createHash('sha256').update(Buffer.from(payload.file, 'base64')).digest('hex')).toBe(fileSha256);
  });

  it('stops at once, exit 2, when --out exists, although the large input was opened and left unread', async () => {
    const path = tmp.path('medium-again.bin');
    await writeFile(path, file);
    const out = tmp.path('exists.json');
    await writeFile(out, 'keep me');
    const result = await runCli(['encrypt', '--file', path, '--out', out], { env: { JWE_KEY: KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('already exists');
    expect(await readFile(out, 'utf8')).toBe('keep me');
  });

  it('streams a jwcrypto envelope from stdin: a digest without --out, the file with --out', async () => {
    const [envelope] = await jwcryptoEncrypt(
      KEY,
      Buffer.from(JSON.stringify({ file: file.toString('base64') })),
      { kid: 'k1' },
    );
    const input = JSON.stringify(envelope);
    expect(input.length).toBeGreaterThan(8 * 2 ** 20);

    const digest = await runCli(['decrypt', '-', '--json'], { input, env: { JWE_KEY: KEY } });
    expect(digest.code, digest.stderr).toBe(0);
    expect(JSON.parse(digest.stdout)).toMatchObject({
      streamed: true,
      kid: 'k1',
      payload: { size: file.length, sha256: fileSha256 },
    });

    const keyFile = tmp.path('keys.txt');
    await writeFile(keyFile, `old=${OTHER_KEY}\nk1=${KEY}\n`);
    const out = tmp.path('from-stdin.bin');
    const saved = await runCli(['decrypt', '-', '--out', out, '-k', keyFile], { input });
    expect(saved.code, saved.stderr).toBe(0);
    expect(
      createHash('sha256')
        .update(await readFile(out))
        .digest('hex'),
    ).toBe(fileSha256);
  });

  it('exits 1 for a tampered large envelope and leaves no output file behind', async () => {
    const [envelope] = await jwcryptoEncrypt(
      KEY,
      Buffer.from(JSON.stringify({ file: file.toString('base64') })),
    );
    const tag = String(envelope!.tag);
    const tampered = JSON.stringify({ ...envelope, tag: `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}` });
    const dir = tmp.path('tampered');
    await mkdir(dir);
    const out = `${dir}/never.bin`;
    const result = await runCli(['decrypt', '-', '--out', out], { input: tampered, env: { JWE_KEY: KEY } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ERR_JWE_DECRYPTION_FAILED');
    await expect(access(out)).rejects.toThrow();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses --raw without --out for a large envelope, so unverified plaintext never reaches stdout', async () => {
    const [envelope] = await jwcryptoEncrypt(
      KEY,
      Buffer.from(JSON.stringify({ file: file.toString('base64') })),
    );
    const result = await runCli(['decrypt', '--raw'], {
      input: JSON.stringify(envelope),
      env: { JWE_KEY: KEY },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('only to --out');
  });

  it('inspects a large envelope in one pass: exact part lengths, streamed verification, diagnostics', async () => {
    const payload = Buffer.from(JSON.stringify({ file: file.toString('base64') }));
    const [envelope] = await jwcryptoEncrypt(KEY, payload, { kid: 'k1' });
    const input = JSON.stringify(envelope);
    expect(input.length).toBeGreaterThan(16 * 2 ** 20);
    const ciphertextBytes = (Math.floor(payload.length / 16) + 1) * 16;

    const verified = await runCli(['inspect', '--json'], { input, env: { JWE_KEY: KEY } });
    expect(verified.code, verified.stderr).toBe(0);
    const report = JSON.parse(verified.stdout);
    expect(report.parts).toContainEqual({
      name: 'ciphertext',
      chars: String(envelope!.ciphertext).length,
      bytes: ciphertextBytes,
    });
    expect(report.kid).toBe('k1');
    expect(report.verification).toMatchObject({ ok: true, payload: { size: payload.length } });
    expect(report.verification.payload.sha256).toBe(createHash('sha256').update(payload).digest('hex'));

    const wrongKey = await runCli(['inspect', '--json'], { input, env: { JWE_KEY: OTHER_KEY } });
    expect(wrongKey.code).toBe(1);
    expect(JSON.parse(wrongKey.stdout).verification.findings.join(' ')).toContain('one streaming pass');

    const padded = input.replace('"ciphertext":"', '"ciphertext":"==');
    const diagnosed = await runCli(['inspect', '--json'], { input: padded });
    expect(diagnosed.code).toBe(0);
    expect(JSON.parse(diagnosed.stdout).diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'BASE64URL_NONCANONICAL',
        message: expect.stringContaining('"ciphertext" has "=" padding'),
      }),
    );
  });
});
