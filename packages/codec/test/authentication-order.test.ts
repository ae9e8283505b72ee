import { afterEach, describe, expect, it, vi } from 'vitest';
import { DECRYPTION_FAILED_MESSAGE } from '../src/errors.js';
import { PROTECTED_COMPACT } from '../src/header.js';
import { backends } from './support/backends.js';
import { b64u, fromB64u, patternBytes, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import { fullMac, rawEnvelope } from './support/raw-jwe.js';

const KEY = 'k3y-f0r-t3st1ng!';
const OTHER_KEY = 'an0ther-k3y-0000';
const KEY_BYTES = utf8(KEY + KEY);
const IV = patternBytes(16, 7);

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(backends)('tag before decryption, $name back end', ({ codec, backend, primitives }) => {
  const spies = () => ({
    hmac: vi.spyOn(primitives, 'hmacSha256'),
    compare: vi.spyOn(backend, 'constantTimeEqual'),
    decrypt: vi.spyOn(primitives, 'aesCbcDecrypt'),
  });

  it('a bad tag is refused after HMAC and the constant-time compare, and AES decrypt never runs', async () => {
    const envelope = await codec.encrypt('secret payload', KEY);
    const tag = fromB64u(envelope.tag);
    tag[0]! ^= 1;
    const { hmac, compare, decrypt } = spies();
    await expectJweError(
      () => codec.decrypt({ ...envelope, tag: b64u(tag) }, KEY),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    expect(hmac).toHaveBeenCalled();
    expect(compare).toHaveBeenCalled();
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('a good tag: HMAC, then the compare, then AES decrypt', async () => {
    const envelope = await codec.encrypt('secret payload', KEY);
    const { hmac, compare, decrypt } = spies();
    expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY))).toBe('secret payload');
    expect(decrypt).toHaveBeenCalledTimes(1);
    const decryptOrder = decrypt.mock.invocationCallOrder[0]!;
    expect(Math.max(...hmac.mock.invocationCallOrder)).toBeLessThan(decryptOrder);
    expect(Math.max(...compare.mock.invocationCallOrder)).toBeLessThan(decryptOrder);
    expect(hmac.mock.invocationCallOrder[0]!).toBeLessThan(compare.mock.invocationCallOrder[0]!);
    expect(compare.mock.results.at(-1)?.value).toBe(true);
  });

  it('the compare sees the full 16-byte tags it must decide on', async () => {
    const envelope = await codec.encrypt('x', KEY);
    const { compare } = spies();
    await codec.decrypt(envelope, KEY);
    const [expected, received] = compare.mock.calls.at(-1)!;
    expect(expected.length).toBe(16);
    expect(b64u(received)).toBe(envelope.tag);
  });

  it.each([0, 1, 15, 17, 32])(
    'a %d-byte tag fails with the one decryption error, never a RangeError',
    async (length) => {
      const envelope = await codec.encrypt('payload', KEY);
      const valid = fromB64u(envelope.tag);
      const tag = new Uint8Array(length);
      tag.set(valid.subarray(0, Math.min(length, 16)));
      const { decrypt } = spies();
      const error = await expectJweError(
        () => codec.decrypt({ ...envelope, tag: b64u(tag) }, KEY),
        'ERR_JWE_DECRYPTION_FAILED',
      );
      expect(error.message).toBe(DECRYPTION_FAILED_MESSAGE);
      expect(decrypt).not.toHaveBeenCalled();
    },
  );

  it('a 32-byte tag that is the full, untruncated HMAC is refused too', async () => {
    const envelope = await codec.encrypt('payload', KEY);
    const mac = fullMac(
      KEY_BYTES.subarray(0, 16),
      utf8(PROTECTED_COMPACT),
      fromB64u(envelope.iv),
      fromB64u(envelope.ciphertext),
    );
    expect(b64u(mac.subarray(0, 16))).toBe(envelope.tag);
    await expectJweError(
      () => codec.decrypt({ ...envelope, tag: b64u(mac) }, KEY),
      'ERR_JWE_DECRYPTION_FAILED',
    );
  });

  describe('bad padding under a valid tag looks exactly like a bad tag', () => {
    const badPaddings: Array<[string, Uint8Array]> = [
      ['pad byte 0', new Uint8Array(16)],
      ['pad byte 17', new Uint8Array(16).fill(17)],
      ['inconsistent pad bytes', Uint8Array.from([...new Array(13).fill(65), 3, 2, 3])],
      ['two blocks, last pad byte 0x20', Uint8Array.from([...new Array(31).fill(66), 0x20])],
    ];

    /** `blocks` sealed as they are (no PKCS#7 added) under a valid tag: only the padding check can refuse them. */
    const unpaddedEnvelope = (blocks: Uint8Array) =>
      rawEnvelope({
        key: KEY_BYTES,
        iv: IV,
        plaintext: blocks,
        aad: PROTECTED_COMPACT,
        pkcs7: false,
        protectedText: PROTECTED_COMPACT,
      });

    it.each(badPaddings)('%s', async (_name, blocks) => {
      const envelope = unpaddedEnvelope(blocks);
      const badTag = { ...envelope, tag: b64u(new Uint8Array(16)) };
      const { decrypt } = spies();
      const paddingError = await expectJweError(
        () => codec.decrypt(envelope, KEY),
        'ERR_JWE_DECRYPTION_FAILED',
      );
      // The tag was valid, so decryption ran and the padding check is what failed.
      expect(decrypt).toHaveBeenCalledTimes(1);
      const tagError = await expectJweError(() => codec.decrypt(badTag, KEY), 'ERR_JWE_DECRYPTION_FAILED');
      expect(decrypt).toHaveBeenCalledTimes(1);
      expect(paddingError.message).toBe(tagError.message);
      expect(paddingError.name).toBe(tagError.name);
      expect(Object.keys(paddingError)).toEqual(Object.keys(tagError));
    });

    it('the same blocks with correct padding decrypt (the construction itself is sound)', async () => {
      const blocks = Uint8Array.from([...utf8('fifteen bytes!!'), 1]);
      const envelope = unpaddedEnvelope(blocks);
      expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY))).toBe('fifteen bytes!!');
    });
  });

  it.each([
    ['empty', 0],
    ['not a whole block', 20],
  ])('a %s ciphertext under a valid tag is the one decryption error', async (_name, length) => {
    const ciphertext = patternBytes(length, 3);
    const tag = fullMac(KEY_BYTES.subarray(0, 16), utf8(PROTECTED_COMPACT), IV, ciphertext).subarray(0, 16);
    const envelope = {
      protected: PROTECTED_COMPACT,
      iv: b64u(IV),
      ciphertext: b64u(ciphertext),
      tag: b64u(tag),
    };
    const error = await expectJweError(() => codec.decrypt(envelope, KEY), 'ERR_JWE_DECRYPTION_FAILED');
    expect(error.message).toBe(DECRYPTION_FAILED_MESSAGE);
  });

  it('a wrong key gives the same error and message as a bad tag', async () => {
    const envelope = await codec.encrypt('payload', KEY);
    const { decrypt } = spies();
    const error = await expectJweError(() => codec.decrypt(envelope, OTHER_KEY), 'ERR_JWE_DECRYPTION_FAILED');
    expect(error.message).toBe(DECRYPTION_FAILED_MESSAGE);
    expect(decrypt).not.toHaveBeenCalled();
  });

  it('every single bit of the tag matters', async () => {
    const envelope = await codec.encrypt('every bit', KEY);
    const tag = fromB64u(envelope.tag);
    const { decrypt } = spies();
    for (let bit = 0; bit < 128; bit++) {
      const flipped = tag.slice();
      flipped[bit >> 3]! ^= 0x80 >> (bit & 7);
      await expectJweError(
        () => codec.decrypt({ ...envelope, tag: b64u(flipped) }, KEY),
        'ERR_JWE_DECRYPTION_FAILED',
      );
    }
    expect(decrypt).not.toHaveBeenCalled();
  });
});
