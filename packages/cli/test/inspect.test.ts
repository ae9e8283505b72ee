import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwcryptoDecrypt, jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import { KEY, OTHER_KEY, runCli, utf8 } from './helpers/run-cli.js';

const b64url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');
const codes = (report: { diagnostics: Array<{ code: string }> }) => report.diagnostics.map((d) => d.code);

/**
 * The full HMAC-SHA-256 of a jwcrypto envelope (RFC 7518 5.2.2.1 before truncation). Its first 16
 * bytes must equal the peer's own tag, which checks this construction independently of our code.
 */
function untruncatedTag(envelope: Record<string, unknown>, key: string): Buffer {
  const aad = Buffer.from(String(envelope.protected), 'ascii');
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(aad.length * 8));
  return createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(aad)
    .update(Buffer.from(String(envelope.iv), 'base64url'))
    .update(Buffer.from(String(envelope.ciphertext), 'base64url'))
    .update(length)
    .digest();
}

async function envelopeWithFullTag() {
  const [envelope] = await jwcryptoEncrypt(KEY, utf8('{"result":"documented sample"}'));
  const full = untruncatedTag(envelope!, KEY);
  expect(full.subarray(0, 16).toString('base64url')).toBe(envelope!.tag);
  const longTag = { ...envelope, tag: full.toString('base64url') };
  const [peerVerdict] = await jwcryptoDecrypt(KEY, [longTag]);
  expect(peerVerdict!.ok).toBe(false);
  return longTag;
}

describe('inspect without a key', () => {
  it('shows the header, kid and part lengths of a well-formed envelope, with no diagnostics', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('x'.repeat(40)), { kid: 'k1' });
    const result = await runCli(['inspect', '--json'], { input: JSON.stringify(envelope) });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.protectedHeader).toEqual({
      present: true,
      decoded: { alg: 'dir', enc: 'A128CBC-HS256' },
      encoding: 'compact',
    });
    expect(report.kid).toBe('k1');
    expect(report.parts).toEqual([
      { name: 'protected', chars: 47, bytes: 35 },
      { name: 'iv', chars: 22, bytes: 16 },
      { name: 'ciphertext', chars: 64, bytes: 48 },
      { name: 'tag', chars: 22, bytes: 16 },
      { name: 'kid', chars: 2, bytes: null },
    ]);
    expect(report.diagnostics).toEqual([]);
    expect(report.verification).toBeUndefined();
  });

  it('diagnoses a 32-byte tag as the untruncated HMAC-SHA-256', async () => {
    const longTag = await envelopeWithFullTag();
    const result = await runCli(['inspect'], { input: JSON.stringify(longTag) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/tag\s+43 chars\s+32 bytes/);
    expect(result.stdout).toContain('TAG_LENGTH');
    expect(result.stdout).toContain('most likely the full HMAC-SHA-256 output');

    const decrypted = await runCli(['decrypt'], { input: JSON.stringify(longTag), env: { JWE_KEY: KEY } });
    expect(decrypted.code).toBe(1);
    expect(decrypted.stderr).toContain(
      'Its tag is 32 bytes instead of 16 (most likely the full, untruncated HMAC-SHA-256)',
    );
  });

  it('explains a missing protected header, padding, a GCM-sized IV and an unsupported enc', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{}'));
    const { protected: _p, ...noProtected } = envelope!;
    const missing = JSON.parse(
      (await runCli(['inspect', '--json'], { input: JSON.stringify(noProtected) })).stdout,
    );
    expect(codes(missing)).toEqual(['PROTECTED_MISSING']);
    expect(missing.diagnostics[0].message).toContain('empty AAD');

    const padded = { ...envelope, tag: `${envelope!.tag}==` };
    const paddedReport = JSON.parse(
      (await runCli(['inspect', '--json'], { input: JSON.stringify(padded) })).stdout,
    );
    expect(codes(paddedReport)).toEqual(['BASE64URL_NONCANONICAL']);
    expect(paddedReport.diagnostics[0].message).toContain('"tag" has "=" padding');

    const gcm = {
      protected: b64url('{"alg":"dir","enc":"A256GCM"}'),
      iv: b64url(new Uint8Array(12)),
      ciphertext: b64url(new Uint8Array(5)),
      tag: b64url(new Uint8Array(16)),
    };
    const gcmReport = JSON.parse(
      (await runCli(['inspect', '--json'], { input: JSON.stringify(gcm) })).stdout,
    );
    expect(codes(gcmReport)).toEqual([
      'PROTECTED_UNUSUAL',
      'ENC_UNSUPPORTED',
      'IV_LENGTH',
      'CIPHERTEXT_LENGTH',
    ]);
    expect(gcmReport.diagnostics[2].message).toContain('AES-GCM nonce');
  });

  it('inspects a compact JWE and names its serialization', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{}'));
    const compact = `${envelope!.protected}..${envelope!.iv}.${envelope!.ciphertext}.${envelope!.tag}`;
    const result = await runCli(['inspect'], { input: compact });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Envelope (compact)');
  });
});

describe('inspect with a key', () => {
  it('verifies a good envelope and shows its content, exit 0', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{"ok":1}'));
    const result = await runCli(['inspect', '--json'], {
      input: JSON.stringify(envelope),
      env: { JWE_KEY: KEY },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).verification).toMatchObject({
      ok: true,
      authenticatedAs: 'protected',
      payload: { value: { ok: 1 } },
    });
  });

  it('confirms the untruncated tag, shows the authentic content, and exits 1 since it is not standard', async () => {
    const longTag = await envelopeWithFullTag();
    const result = await runCli(['inspect', '--json'], {
      input: JSON.stringify(longTag),
      env: { JWE_KEY: KEY },
    });
    expect(result.code).toBe(1);
    const { verification } = JSON.parse(result.stdout);
    expect(verification.ok).toBe(false);
    expect(verification.authenticatedAs).toContain(
      'untruncated 32-byte tag over the protected header as sent',
    );
    expect(verification.findings[0]).toContain(
      'Confirmed: the 32-byte tag is the full, untruncated HMAC-SHA-256',
    );
    expect(verification.payload.value).toEqual({ result: 'documented sample' });
  });

  it('spots a tag computed over a different header encoding than the one sent', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{"n":1}'));
    const respaced = { ...envelope, protected: 'eyJhbGciOiAiZGlyIiwgImVuYyI6ICJBMTI4Q0JDLUhTMjU2In0' };
    const result = await runCli(['inspect', '--json'], {
      input: JSON.stringify(respaced),
      env: { JWE_KEY: KEY },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(codes(report)).toEqual(['PROTECTED_SPACED']);
    expect(report.verification.findings.join(' ')).toContain('not over the protected header as sent');
    expect(report.verification.authenticatedAs).toContain('{"alg":"dir","enc":"A128CBC-HS256"}');
  });

  it('lists what a wrong key rules out and what remains, exit 1', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{"n":2}'));
    const result = await runCli(['inspect'], {
      input: JSON.stringify(envelope),
      env: { JWE_KEY: OTHER_KEY },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('did not verify');
    const ruledOut = result.stdout.slice(
      result.stdout.indexOf('Ruled out:'),
      result.stdout.indexOf('Still possible:'),
    );
    expect(ruledOut).toContain('Key length');
    expect(ruledOut).toContain('Header encoding');
    expect(ruledOut).toContain('Ignored protected header');
    expect(ruledOut).toContain('Tag length');
    const remaining = result.stdout.slice(result.stdout.indexOf('Still possible:'));
    expect(remaining).toContain('A different key');
    expect(remaining).toContain('A change on the way');
    expect(result.stdout).not.toContain(OTHER_KEY);
  });

  it('tells an authentic but non-canonically encoded envelope from a forged one', async () => {
    const [envelope] = await jwcryptoEncrypt(KEY, utf8('{"n":3}'));
    const padded = { ...envelope, iv: `${envelope!.iv}==` };
    const result = await runCli(['inspect', '--json'], {
      input: JSON.stringify(padded),
      env: { JWE_KEY: KEY },
    });
    expect(result.code).toBe(1);
    const { verification } = JSON.parse(result.stdout);
    expect(verification.findings[0]).toContain('refuse this envelope before checking its tag');
    expect(verification.payload.value).toEqual({ n: 3 });
  });
});
