import { describe, expect, it } from 'vitest';
import { PROTECTED_COMPACT, PROTECTED_SPACED } from '../src/header.js';
import { backends } from './support/backends.js';
import { b64u, patternBytes, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import { rawEnvelope, rawSeal } from './support/raw-jwe.js';

/*
 * Response envelopes come without `protected` (spec 2.2). Three readings are plausible (field
 * notes): RFC 7516's empty AAD, or a tag computed over one of the two header spellings before the
 * member was dropped. Each fixture below is built independently with node:crypto.
 */

const KEY = 'r3sp0nse-k3y-016';
const KEY_BYTES = utf8(KEY + KEY);
const IV = patternBytes(16, 21);
const BODY = '{"status":"ok","id":"doc-1"}';

const response = (aad: string) => rawEnvelope({ key: KEY_BYTES, iv: IV, plaintext: utf8(BODY), aad });

const VARIANTS = [
  ['RFC reading (empty AAD)', '', 'none'],
  ['tag over the compact header', PROTECTED_COMPACT, 'assumed-compact'],
  ['tag over the spaced header', PROTECTED_SPACED, 'assumed-spaced'],
] as const;

describe.each(backends)('envelopes without "protected", $name back end', ({ codec }) => {
  it('the two documented header spellings decode to the expected JSON', () => {
    expect(Buffer.from(PROTECTED_COMPACT, 'base64url').toString()).toBe(
      '{"alg":"dir","enc":"A128CBC-HS256"}',
    );
    expect(Buffer.from(PROTECTED_SPACED, 'base64url').toString()).toBe(
      '{"alg": "dir", "enc": "A128CBC-HS256"}',
    );
  });

  it.each(VARIANTS)(
    "%s decrypts by default ('infer') and headerSource says %s",
    async (_name, aad, source) => {
      const envelope = response(aad);
      expect('protected' in envelope).toBe(false);
      const result = await codec.decryptDetailed(envelope, KEY);
      expect(new TextDecoder().decode(result.plaintext)).toBe(BODY);
      expect(result.headerSource).toBe(source);
      expect(result.header).toMatchObject({ alg: 'dir', enc: 'A128CBC-HS256' });
      expect(await codec.decryptJson(envelope, KEY, { missingProtected: 'infer' })).toEqual(JSON.parse(BODY));
    },
  );

  it("'rfc' accepts only the empty-AAD reading", async () => {
    const [rfc, compact, spaced] = VARIANTS.map(([, aad]) => response(aad));
    const result = await codec.decryptDetailed(rfc!, KEY, { missingProtected: 'rfc' });
    expect(result.headerSource).toBe('none');
    await expectJweError(
      () => codec.decrypt(compact!, KEY, { missingProtected: 'rfc' }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    await expectJweError(
      () => codec.decrypt(spaced!, KEY, { missingProtected: 'rfc' }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
  });

  it("'reject' refuses every envelope without protected, before any key is used", async () => {
    let resolverCalls = 0;
    for (const [, aad] of VARIANTS) {
      await expectJweError(
        () =>
          codec.decrypt(
            response(aad),
            () => {
              resolverCalls++;
              return KEY;
            },
            { missingProtected: 'reject' },
          ),
        'ERR_JWE_INVALID',
      );
    }
    expect(resolverCalls).toBe(0);
    const normal = await codec.encrypt(BODY, KEY);
    const result = await codec.decryptDetailed(normal, KEY, { missingProtected: 'reject' });
    expect(result.headerSource).toBe('protected');
  });

  it('a protected member that is present is never replaced by a guess', async () => {
    // Tag over the compact header, but the member says the spaced one: must fail, not fall back.
    const envelope = { protected: PROTECTED_SPACED, ...response(PROTECTED_COMPACT) };
    await expectJweError(() => codec.decrypt(envelope, KEY), 'ERR_JWE_DECRYPTION_FAILED');
  });

  it('a wrong key fails under every reading with the one error', async () => {
    for (const [, aad] of VARIANTS) {
      await expectJweError(
        () => codec.decrypt(response(aad), 'wrong-key-16byte'),
        'ERR_JWE_DECRYPTION_FAILED',
      );
    }
  });

  it('the documented 32-byte tag sample (full HMAC-SHA-256) is refused under every policy', async () => {
    for (const [, aad] of VARIANTS) {
      const sealed = rawSeal({ key: KEY_BYTES, iv: IV, plaintext: utf8(BODY), aad });
      const envelope = { iv: b64u(IV), ciphertext: b64u(sealed.ciphertext), tag: b64u(sealed.mac) };
      for (const missingProtected of ['infer', 'rfc'] as const) {
        await expectJweError(
          () => codec.decrypt(envelope, KEY, { missingProtected }),
          'ERR_JWE_DECRYPTION_FAILED',
        );
      }
    }
  });

  it('an explicit per-recipient header with empty AAD (jwcrypto style) is the RFC reading', async () => {
    const envelope = { ...response(''), header: { alg: 'dir', enc: 'A128CBC-HS256' } };
    const result = await codec.decryptDetailed(envelope, KEY);
    expect(result.headerSource).toBe('none');
    expect(new TextDecoder().decode(result.plaintext)).toBe(BODY);
  });

  it('an unprotected header naming another algorithm is unsupported, not guessed over', async () => {
    await expectJweError(
      () => codec.decrypt({ ...response(''), header: { alg: 'A128KW', enc: 'A128CBC-HS256' } }, KEY),
      'ERR_JWE_UNSUPPORTED',
    );
    await expectJweError(
      () => codec.decrypt({ ...response(''), unprotected: { enc: 'A256GCM' } }, KEY),
      'ERR_JWE_UNSUPPORTED',
    );
  });

  it('kid travels top-level on responses too', async () => {
    const result = await codec.decryptDetailed({ ...response(PROTECTED_SPACED), kid: 'svc-1' }, (kid) =>
      kid === 'svc-1' ? KEY : undefined,
    );
    expect(result.kid).toBe('svc-1');
    expect(result.headerSource).toBe('assumed-spaced');
  });
});
