import { describe, expect, it } from 'vitest';
// The published WebCrypto build (pnpm build first): what browsers, workers and --conditions=browser load.
import * as webCodec from '../dist/index.js';
import * as nodeCodec from '../src/index.js';
import { utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import { joseNpmDecrypt, jwcryptoDecrypt } from './support/peers.js';

const KEY = 'sync-k3y-0f-16b!';

describe('encryptSync (Node back end)', () => {
  it('returns the envelope itself, not a promise, and independent implementations read it', async () => {
    const envelope = nodeCodec.encryptSync('{"aadhaar_number":"123412341234"}', KEY, { kid: 'k-1' });
    expect(envelope).not.toBeInstanceOf(Promise);
    expect(envelope.kid).toBe('k-1');
    expect(envelope.protected).toBe(nodeCodec.PROTECTED_COMPACT);
    const expected = '{"aadhaar_number":"123412341234"}';
    expect(new TextDecoder().decode(await nodeCodec.decrypt(envelope, KEY))).toBe(expected);
    expect(new TextDecoder().decode(await joseNpmDecrypt(KEY, envelope))).toBe(expected);
    const [byJwcrypto] = await jwcryptoDecrypt(KEY, [envelope]);
    expect(byJwcrypto?.ok && new TextDecoder().decode(byJwcrypto.plaintext)).toBe(expected);
  });

  it('draws a fresh IV every call, and matches encrypt() byte for byte under a fixed IV', async () => {
    const a = nodeCodec.encryptSync(utf8('same'), KEY);
    const b = nodeCodec.encryptSync(utf8('same'), KEY);
    expect(a.iv).not.toBe(b.iv);
    const unsafeFixedIv = new Uint8Array(16).fill(9);
    expect(nodeCodec.encryptSync('same', KEY, { unsafeFixedIv })).toEqual(
      await nodeCodec.encrypt('same', KEY, { unsafeFixedIv }),
    );
  });

  it('throws at once, not later, on bad input', () => {
    expect(() => nodeCodec.encryptSync(42 as never, KEY)).toThrow(TypeError);
    expect(() => nodeCodec.encryptSync('x', KEY, { kid: 7 as never })).toThrow(
      /^encryptSync: kid must be a string/,
    );
    expect(() => nodeCodec.encryptSync('x', 'too short')).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_INVALID' }),
    );
  });

  it('errors name the function the caller used: encrypt() shares the work but not the name', async () => {
    await expect(nodeCodec.encrypt('x', KEY, { kid: 7 as never })).rejects.toThrow(
      /^encrypt: kid must be a string/,
    );
    await expect(nodeCodec.encryptJson({ a: 1 }, KEY, { unsafeFixedIv: new Uint8Array(3) })).rejects.toThrow(
      /^encrypt: the IV must be 16 bytes/,
    );
  });
});

describe('encryptSync (WebCrypto back end)', () => {
  it('is refused with ERR_JWE_UNSUPPORTED, pointing to encrypt()', async () => {
    const error = await expectJweError(() => webCodec.encryptSync('x', KEY), 'ERR_JWE_UNSUPPORTED');
    expect(error.message).toMatch(/use encrypt\(\)/);
  });
});
