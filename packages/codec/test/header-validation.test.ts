import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JweErrorCode } from '../src/errors.js';
import { PROTECTED_COMPACT } from '../src/header.js';
import { backends } from './support/backends.js';
import { b64u, patternBytes, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import { rawEnvelope } from './support/raw-jwe.js';

const KEY = 'k3y-f0r-t3st1ng!';
const KEY_BYTES = utf8(KEY + KEY);
const IV = patternBytes(16, 11);

/** An envelope whose tag is valid for `protectedText`, so only header checks can refuse it. */
function envelopeWithHeader(protectedText: string) {
  return rawEnvelope({
    key: KEY_BYTES,
    iv: IV,
    plaintext: utf8('{"a":1}'),
    aad: protectedText,
    protectedText,
  });
}

const headerBytes = (json: string) => b64u(utf8(json));

const REJECTED: Array<[string, string, JweErrorCode]> = [
  ['not JSON', headerBytes('{alg:"dir"}'), 'ERR_JWE_INVALID'],
  ['empty', '', 'ERR_JWE_INVALID'],
  ['a JSON array', headerBytes('["dir","A128CBC-HS256"]'), 'ERR_JWE_INVALID'],
  ['a JSON string', headerBytes('"dir"'), 'ERR_JWE_INVALID'],
  ['JSON null', headerBytes('null'), 'ERR_JWE_INVALID'],
  ['a number', headerBytes('1'), 'ERR_JWE_INVALID'],
  [
    'invalid UTF-8 (0xff)',
    b64u(Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])),
    'ERR_JWE_INVALID',
  ],
  [
    'invalid UTF-8 (surrogate half ED A0 80)',
    b64u(Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22])),
    'ERR_JWE_INVALID',
  ],
  ['overlong UTF-8 for "{"', b64u(Uint8Array.from([0xc1, 0xbb, 0x7d])), 'ERR_JWE_INVALID'],
  [
    'duplicate "alg" (same value)',
    headerBytes('{"alg":"dir","enc":"A128CBC-HS256","alg":"dir"}'),
    'ERR_JWE_INVALID',
  ],
  [
    'duplicate "alg" (last one wins in JSON.parse)',
    headerBytes('{"alg":"RSA1_5","enc":"A128CBC-HS256","alg":"dir"}'),
    'ERR_JWE_INVALID',
  ],
  [
    'duplicate "enc" spelled with an escape',
    headerBytes('{"alg":"dir","enc":"A128CBC-HS256","\\u0065nc":"A128CBC-HS256"}'),
    'ERR_JWE_INVALID',
  ],
  [
    'duplicate member in a nested object',
    headerBytes('{"alg":"dir","enc":"A128CBC-HS256","x":{"a":1,"a":2}}'),
    'ERR_JWE_INVALID',
  ],
  [
    '"__proto__" member',
    headerBytes('{"alg":"dir","enc":"A128CBC-HS256","__proto__":{"zip":"DEF"}}'),
    'ERR_JWE_INVALID',
  ],
  [
    '"__proto__" spelled with escapes',
    headerBytes('{"alg":"dir","enc":"A128CBC-HS256","\\u005f_proto__":{}}'),
    'ERR_JWE_INVALID',
  ],
  [
    '"crit"',
    headerBytes('{"alg":"dir","enc":"A128CBC-HS256","crit":["exp"],"exp":1}'),
    'ERR_JWE_UNSUPPORTED',
  ],
  ['"crit" empty', headerBytes('{"alg":"dir","enc":"A128CBC-HS256","crit":[]}'), 'ERR_JWE_UNSUPPORTED'],
  ['"zip": "DEF"', headerBytes('{"alg":"dir","enc":"A128CBC-HS256","zip":"DEF"}'), 'ERR_JWE_UNSUPPORTED'],
  ['"zip": null', headerBytes('{"alg":"dir","enc":"A128CBC-HS256","zip":null}'), 'ERR_JWE_UNSUPPORTED'],
  ['alg A128KW', headerBytes('{"alg":"A128KW","enc":"A128CBC-HS256"}'), 'ERR_JWE_UNSUPPORTED'],
  ['alg RSA-OAEP', headerBytes('{"alg":"RSA-OAEP","enc":"A128CBC-HS256"}'), 'ERR_JWE_UNSUPPORTED'],
  ['alg none', headerBytes('{"alg":"none","enc":"A128CBC-HS256"}'), 'ERR_JWE_UNSUPPORTED'],
  ['alg "DIR" (case matters)', headerBytes('{"alg":"DIR","enc":"A128CBC-HS256"}'), 'ERR_JWE_UNSUPPORTED'],
  ['enc A256GCM', headerBytes('{"alg":"dir","enc":"A256GCM"}'), 'ERR_JWE_UNSUPPORTED'],
  ['enc A256CBC-HS512', headerBytes('{"alg":"dir","enc":"A256CBC-HS512"}'), 'ERR_JWE_UNSUPPORTED'],
  ['no alg', headerBytes('{"enc":"A128CBC-HS256"}'), 'ERR_JWE_UNSUPPORTED'],
  ['no enc', headerBytes('{"alg":"dir"}'), 'ERR_JWE_UNSUPPORTED'],
  ['empty object', headerBytes('{}'), 'ERR_JWE_UNSUPPORTED'],
  ['a non-string kid', headerBytes('{"alg":"dir","enc":"A128CBC-HS256","kid":7}'), 'ERR_JWE_INVALID'],
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(backends)('protected header checks, $name back end', ({ codec, primitives }) => {
  it.each(REJECTED)('%s is refused before any crypto', async (_name, protectedText, code) => {
    const envelope = envelopeWithHeader(protectedText);
    const hmac = vi.spyOn(primitives, 'hmacSha256');
    const decrypt = vi.spyOn(primitives, 'aesCbcDecrypt');
    await expectJweError(() => codec.decrypt(envelope, KEY), code);
    // Also as JSON text and as a compact JWE, where the input form allows it.
    await expectJweError(() => codec.decrypt(JSON.stringify(envelope), KEY), code);
    if (protectedText !== '') {
      const compact = `${protectedText}..${envelope.iv}.${envelope.ciphertext}.${envelope.tag}`;
      await expectJweError(() => codec.decrypt(compact, KEY), code);
    }
    expect(hmac).not.toHaveBeenCalled();
    expect(decrypt).not.toHaveBeenCalled();
  });

  it.each([
    ['the compact header', PROTECTED_COMPACT],
    ['the spaced header', b64u('{"alg": "dir", "enc": "A128CBC-HS256"}')],
    ['extra harmless members', headerBytes('{"enc":"A128CBC-HS256","typ":"JWE","cty":"json","alg":"dir"}')],
    ['a string kid in the header', headerBytes('{"alg":"dir","enc":"A128CBC-HS256","kid":"k1"}')],
  ])('%s is accepted (control for the cases above)', async (_name, protectedText) => {
    const result = await codec.decryptDetailed(envelopeWithHeader(protectedText), KEY);
    expect(new TextDecoder().decode(result.plaintext)).toBe('{"a":1}');
    expect(result.header.alg).toBe('dir');
    expect(result.header.enc).toBe('A128CBC-HS256');
    expect(result.headerSource).toBe('protected');
  });

  describe('unprotected headers join the same checks', () => {
    it.each([
      ['zip in the per-recipient header', { header: { zip: 'DEF' } }, 'ERR_JWE_UNSUPPORTED'],
      ['crit in the shared unprotected header', { unprotected: { crit: ['x'] } }, 'ERR_JWE_UNSUPPORTED'],
      ['alg repeated outside the protected header', { header: { alg: 'dir' } }, 'ERR_JWE_INVALID'],
      [
        'a parameter in both unprotected headers',
        { header: { typ: 'a' }, unprotected: { typ: 'a' } },
        'ERR_JWE_INVALID',
      ],
      ['a non-string kid', { header: { kid: 1 } }, 'ERR_JWE_INVALID'],
      ['header not an object', { header: 'x' }, 'ERR_JWE_INVALID'],
    ] as const)('%s', async (_name, extra, code) => {
      const envelope = { ...envelopeWithHeader(PROTECTED_COMPACT), ...extra };
      const hmac = vi.spyOn(primitives, 'hmacSha256');
      await expectJweError(() => codec.decrypt(envelope as never, KEY), code);
      expect(hmac).not.toHaveBeenCalled();
    });

    it('an own "__proto__" member in an unprotected header object is refused', async () => {
      const header = JSON.parse('{"__proto__":{"alg":"A128KW"}}') as Record<string, unknown>;
      expect(Object.hasOwn(header, '__proto__')).toBe(true);
      const envelope = { ...envelopeWithHeader(PROTECTED_COMPACT), header };
      await expectJweError(() => codec.decrypt(envelope, KEY), 'ERR_JWE_INVALID');
    });

    it('"__proto__" anywhere in envelope JSON text is refused', async () => {
      const text = JSON.stringify(envelopeWithHeader(PROTECTED_COMPACT)).replace(
        '{',
        '{"header":{"__proto__":{}},',
      );
      await expectJweError(() => codec.decrypt(text, KEY), 'ERR_JWE_INVALID');
    });

    it('duplicate members in envelope JSON text are refused', async () => {
      const envelope = envelopeWithHeader(PROTECTED_COMPACT);
      const text = JSON.stringify(envelope).replace('{', `{"tag":"${'A'.repeat(22)}",`);
      await expectJweError(() => codec.decrypt(text, KEY), 'ERR_JWE_INVALID');
    });

    it('top-level kid and header kid that disagree are refused', async () => {
      const envelope = { ...envelopeWithHeader(PROTECTED_COMPACT), kid: 'a', header: { kid: 'b' } };
      await expectJweError(() => codec.decrypt(envelope, KEY), 'ERR_JWE_INVALID');
    });

    it('a harmless unprotected parameter is accepted and reported in the joint header', async () => {
      const envelope = { ...envelopeWithHeader(PROTECTED_COMPACT), unprotected: { note: 'x' } };
      const result = await codec.decryptDetailed(envelope, KEY);
      expect(result.header).toMatchObject({ alg: 'dir', enc: 'A128CBC-HS256', note: 'x' });
    });
  });
});
