import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aadLengthBlock, open, seal } from '../src/cbc-hmac.js';
import { backends } from './support/backends.js';
import { fromB64u, hex, toHex, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';

/*
 * RFC 7518 Appendix B.1: AES_128_CBC_HMAC_SHA_256. Its MAC key (00..0f) and AES key (10..1f)
 * differ, unlike the doubled shared key, so a back end that swapped the halves fails here.
 */
const B1 = {
  K: hex('000102030405060708090a0b0c0d0e0f 101112131415161718191a1b1c1d1e1f'),
  P: utf8(
    'A cipher system must not be required to be secret, and it must be able to fall into the hands of the enemy without inconvenience',
  ),
  IV: hex('1af38c2dc2b96ffdd86694092341bc04'),
  A: utf8('The second principle of Auguste Kerckhoffs'),
  AL: hex('0000000000000150'),
  E: hex(`
    c80edfa32ddf39d5ef00c0b468834279 a2e46a1b8049f792f76bfe54b903a9c9
    a94ac9b47ad2655c5f10f9aef71427e2 fc6f9b3f399a221489f16362c7032336
    09d45ac69864e3321cf82935ac4096c8 6e133314c54019e8ca7980dfa4b9cf1b
    384c486f3a54c51078158ee5d79de59f bd34d848b3d69550a67646344427ade5
    4b8851ffb598f7f80074b9473c82e2db`),
  M: hex('652c3fa36b0a7c5b3219fab3a30bc1c4 e6e54582476515f0ad9f75a2b71c73ef'),
  T: hex('652c3fa36b0a7c5b3219fab3a30bc1c4'),
};

/*
 * RFC 7516 Appendix A.3 (A128KW + A128CBC-HS256): the key wrap is out of scope for `dir`, but its
 * content layer is ours: this CEK, IV and protected header (as AAD) must give this ciphertext and tag.
 */
const A3 = {
  CEK: new Uint8Array([
    4, 211, 31, 197, 84, 157, 252, 254, 11, 100, 157, 250, 63, 170, 106, 206, 107, 124, 212, 45, 111, 107, 9,
    219, 200, 177, 0, 240, 143, 156, 44, 207,
  ]),
  protected: 'eyJhbGciOiJBMTI4S1ciLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0',
  iv: 'AxY8DCtDaGlsbGljb3RoZQ',
  plaintext: 'Live long and prosper.',
  ciphertext: 'KDlTtXchhZTGufMYmOYGS4HffxPSUrfmqCHXaI9wOGY',
  tag: 'U0m_YmjN04DJvceFICbCVQ',
};

describe.each(backends)('known answers, $name back end', ({ backend }) => {
  it('RFC 7518 B.1: seal gives E and T', async () => {
    const key = await backend.prepareKey(B1.K);
    const { ciphertext, tag } = await seal(backend, key, B1.IV, B1.P, B1.A);
    expect(toHex(ciphertext)).toBe(toHex(B1.E));
    expect(toHex(tag)).toBe(toHex(B1.T));
  });

  it('RFC 7518 B.1: one prepared key gives the same answer again, between other messages of any size', async () => {
    // Guards any state a back end keeps per key (e.g. a reused cipher): each message stands alone.
    const key = await backend.prepareKey(B1.K);
    for (const other of [0, 1, 16, 100, 70_000]) {
      await seal(
        backend,
        key,
        B1.IV.map((b) => b ^ 0x5a),
        new Uint8Array(other).fill(other & 255),
        B1.A,
      );
      const { ciphertext, tag } = await seal(backend, key, B1.IV, B1.P, B1.A);
      expect(toHex(ciphertext)).toBe(toHex(B1.E));
      expect(toHex(tag)).toBe(toHex(B1.T));
      const { plaintext } = await open(backend, key, [B1.A], B1.IV, B1.E, B1.T);
      expect(toHex(plaintext)).toBe(toHex(B1.P));
    }
  });

  it('RFC 7518 B.1: the MAC over A || IV || E || AL is M, and T is its first half', async () => {
    const key = await backend.prepareKey(B1.K);
    expect(toHex(aadLengthBlock(B1.A.length))).toBe(toHex(B1.AL));
    const mac = await backend.hmacSha256(key, [B1.A, B1.IV, B1.E, B1.AL]);
    expect(toHex(mac)).toBe(toHex(B1.M));
  });

  it('RFC 7518 B.1: open returns P, and fails with the key halves swapped', async () => {
    const key = await backend.prepareKey(B1.K);
    const { plaintext, aadIndex } = await open(backend, key, [B1.A], B1.IV, B1.E, B1.T);
    expect(toHex(plaintext)).toBe(toHex(B1.P));
    expect(aadIndex).toBe(0);

    const swapped = new Uint8Array(32);
    swapped.set(B1.K.subarray(16), 0);
    swapped.set(B1.K.subarray(0, 16), 16);
    const wrong = await backend.prepareKey(swapped);
    await expectJweError(() => open(backend, wrong, [B1.A], B1.IV, B1.E, B1.T), 'ERR_JWE_DECRYPTION_FAILED');
  });

  it('RFC 7516 A.3: the content layer gives the documented ciphertext and tag', async () => {
    const key = await backend.prepareKey(A3.CEK);
    const aad = backend.latin1Bytes(A3.protected);
    const { ciphertext, tag } = await seal(backend, key, fromB64u(A3.iv), utf8(A3.plaintext), aad);
    expect(backend.encodeBase64Url(ciphertext)).toBe(A3.ciphertext);
    expect(backend.encodeBase64Url(tag)).toBe(A3.tag);
  });

  it('RFC 7516 A.3: open with the documented values returns the plaintext', async () => {
    const key = await backend.prepareKey(A3.CEK);
    const { plaintext } = await open(
      backend,
      key,
      [backend.latin1Bytes(A3.protected)],
      backend.decodeBase64Url(A3.iv, 'iv'),
      backend.decodeBase64Url(A3.ciphertext, 'ciphertext'),
      backend.decodeBase64Url(A3.tag, 'tag'),
    );
    expect(new TextDecoder().decode(plaintext)).toBe(A3.plaintext);
  });
});

describe('AAD length block (AL) is 64-bit math', () => {
  const reference = (length: number) => {
    const block = new Uint8Array(8);
    new DataView(block.buffer).setBigUint64(0, BigInt(length) * 8n);
    return toHex(block);
  };

  it.each([
    0,
    1,
    42,
    2 ** 29 - 1,
    2 ** 29,
    2 ** 29 + 1,
    2 ** 32 - 1,
    2 ** 32,
    2 ** 32 + 7,
    2 ** 40 + 3,
    2 ** 50 - 1,
    Number.MAX_SAFE_INTEGER,
  ])('length %d bytes', (length) => {
    expect(toHex(aadLengthBlock(length))).toBe(reference(length));
  });

  it('lengths past 2^29 bytes set bits in the high word (a 32-bit shift would lose them)', () => {
    expect(toHex(aadLengthBlock(2 ** 29))).toBe('0000000100000000');
    expect(toHex(aadLengthBlock(2 ** 32))).toBe('0000000800000000');
  });

  it('matches BigInt math for any safe integer length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (length) => {
        expect(toHex(aadLengthBlock(length))).toBe(reference(length));
      }),
      { numRuns: 500 },
    );
  });
});
