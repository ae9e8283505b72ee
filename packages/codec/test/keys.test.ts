import { describe, expect, it, vi } from 'vitest';
import { backends } from './support/backends.js';
import { toHex, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';

const KEY_A = 'aaaaaaaa-key-one';
const KEY_B = 'bbbbbbbb-key-two';

describe.each(backends)('keys, $name back end', ({ codec }) => {
  describe('deriveKey', () => {
    it('doubles the shared key as UTF-8', () => {
      expect(toHex(codec.deriveKey(KEY_A))).toBe(toHex(utf8(KEY_A + KEY_A)));
      expect(codec.deriveKey(KEY_A).length).toBe(32);
    });

    it('counts UTF-8 bytes, not characters: 12 characters that are 16 bytes make a valid key', () => {
      const shared = 'ключ12345678';
      expect(shared.length).toBe(12);
      expect(toHex(codec.deriveKey(shared))).toBe(toHex(utf8(shared + shared)));
    });

    it.each([
      ['15 ASCII characters', 'fifteen-chars-k', 15],
      ['17 ASCII characters', 'seventeen-chars-k', 17],
      ['empty', '', 0],
      ['16 characters that are 17 bytes of UTF-8', 'é123456789abcdef', 17],
      ['32 characters (an already doubled key)', KEY_A + KEY_A, 32],
    ])('%s: ERR_KEY_INVALID naming the byte length, never the key', async (_name, shared, bytes) => {
      const error = await expectJweError(() => codec.deriveKey(shared), 'ERR_KEY_INVALID');
      expect(error.message).toContain(`${bytes} bytes`);
      expect(error.message).toContain('16');
      if (shared.length > 0) expect(error.message).not.toContain(shared);
    });

    it('a non-string is ERR_KEY_INVALID', async () => {
      await expectJweError(() => codec.deriveKey(1234 as never), 'ERR_KEY_INVALID');
    });
  });

  describe('key inputs', () => {
    it('a raw 32-byte key is the same key as the shared string it derives from', async () => {
      const envelope = await codec.encrypt('raw', codec.deriveKey(KEY_A));
      expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY_A))).toBe('raw');
    });

    it.each([16, 31, 33, 0])('a raw key of %d bytes is ERR_KEY_INVALID', async (length) => {
      const error = await expectJweError(() => codec.encrypt('x', new Uint8Array(length)), 'ERR_KEY_INVALID');
      expect(error.message).toContain(String(length));
      const envelope = await codec.encrypt('x', KEY_A);
      await expectJweError(() => codec.decrypt(envelope, new Uint8Array(length)), 'ERR_KEY_INVALID');
    });

    it('neither null nor a number is a key', async () => {
      await expectJweError(() => codec.encrypt('x', null as never), 'ERR_KEY_INVALID');
      await expectJweError(() => codec.encrypt('x', 7 as never), 'ERR_KEY_INVALID');
    });

    it('a raw key array refilled with another key between calls is that other key (keys are remembered by content)', async () => {
      const raw = codec.deriveKey(KEY_A);
      const first = await codec.encrypt('first', raw);
      expect(new TextDecoder().decode(await codec.decrypt(first, KEY_A))).toBe('first');
      raw.set(codec.deriveKey(KEY_B));
      const second = await codec.encrypt('second', raw);
      expect(new TextDecoder().decode(await codec.decrypt(second, KEY_B))).toBe('second');
      await expectJweError(() => codec.decrypt(second, KEY_A), 'ERR_JWE_DECRYPTION_FAILED');
      await expectJweError(() => codec.decrypt(first, raw), 'ERR_JWE_DECRYPTION_FAILED');
    });

    it('a keyring keeps its own copy: zeroing the caller-owned bytes afterwards changes nothing', async () => {
      const raw = codec.deriveKey(KEY_A);
      const ringed = codec.keyring({ a: raw });
      raw.fill(0);
      const envelope = await codec.encrypt('copy', KEY_A, { kid: 'a' });
      expect(new TextDecoder().decode(await codec.decrypt(envelope, ringed))).toBe('copy');
    });
  });

  describe('kid and resolvers', () => {
    it('kid goes top-level and the resolver receives it with the header', async () => {
      const envelope = await codec.encrypt('with kid', KEY_B, { kid: 'b' });
      expect(envelope.kid).toBe('b');
      expect(Buffer.from(envelope.protected!, 'base64url').toString()).not.toContain('kid');
      const resolver = vi.fn((kid: string | undefined, _header: object) => (kid === 'b' ? KEY_B : undefined));
      const result = await codec.decryptDetailed(envelope, resolver);
      expect(new TextDecoder().decode(result.plaintext)).toBe('with kid');
      expect(result.kid).toBe('b');
      expect(resolver).toHaveBeenCalledTimes(1);
      expect(resolver.mock.calls[0]![0]).toBe('b');
      expect(resolver.mock.calls[0]![1]).toMatchObject({ alg: 'dir', enc: 'A128CBC-HS256' });
    });

    it('an async resolver works', async () => {
      const envelope = await codec.encrypt('async', KEY_A, { kid: 'a' });
      const plaintext = await codec.decrypt(envelope, async (kid) => (kid === 'a' ? KEY_A : undefined));
      expect(new TextDecoder().decode(plaintext)).toBe('async');
    });

    it('a resolver that throws, synchronously or not, rejects the promise rather than throwing from decrypt', async () => {
      const envelope = await codec.encrypt('x', KEY_A, { kid: 'a' });
      const failure = new Error('vault unreachable');
      const sync = () => {
        throw failure;
      };
      const pending = codec.decrypt(envelope, sync);
      await expect(pending).rejects.toBe(failure);
      await expect(codec.decrypt(envelope, async () => Promise.reject(failure))).rejects.toBe(failure);
    });

    it('a resolver may return any thenable, not only a native promise', async () => {
      const envelope = await codec.encrypt('thenable', KEY_A, { kid: 'a' });
      // biome-ignore lint/suspicious/noThenProperty: the point is a thenable that is not a native promise
      const thenable = { then: (resolve: (key: string) => void) => resolve(KEY_A) };
      const resolver = () => thenable as unknown as Promise<string>;
      expect(new TextDecoder().decode(await codec.decrypt(envelope, resolver))).toBe('thenable');
    });

    it('a synchronous resolver answering undefined is ERR_KEY_UNKNOWN, as an async one is', async () => {
      const envelope = await codec.encrypt('x', KEY_A, { kid: 'gone' });
      await expectJweError(() => codec.decrypt(envelope, () => undefined), 'ERR_KEY_UNKNOWN');
      await expectJweError(() => codec.decrypt(envelope, async () => undefined), 'ERR_KEY_UNKNOWN');
    });

    it('a kid the resolver does not know is ERR_KEY_UNKNOWN naming the kid', async () => {
      const envelope = await codec.encrypt('x', KEY_A, { kid: 'retired-2023' });
      const error = await expectJweError(() => codec.decrypt(envelope, () => undefined), 'ERR_KEY_UNKNOWN');
      expect(error.message).toContain('retired-2023');
    });

    it('no kid and no default is ERR_KEY_UNKNOWN', async () => {
      const envelope = await codec.encrypt('x', KEY_A);
      await expectJweError(() => codec.decrypt(envelope, () => undefined), 'ERR_KEY_UNKNOWN');
    });

    it('a resolver returning an invalid key is ERR_KEY_INVALID', async () => {
      const envelope = await codec.encrypt('x', KEY_A, { kid: 'a' });
      await expectJweError(() => codec.decrypt(envelope, () => 'short'), 'ERR_KEY_INVALID');
    });

    it('a kid in the protected header also selects the key', async () => {
      const envelope = await codec.encrypt('x', KEY_A);
      const result = await codec.decryptDetailed({ ...envelope, header: { kid: 'hdr' } }, (kid) =>
        kid === 'hdr' ? KEY_A : undefined,
      );
      expect(result.kid).toBe('hdr');
    });
  });

  describe('many keys at once (prepared-key caches)', () => {
    const manyKeys = Array.from({ length: 150 }, (_, i) => `shared-key-${String(i).padStart(5, '0')}`);

    it('interleaved, concurrent use of 150 keys never mixes them up', async () => {
      const envelopes = await Promise.all(manyKeys.map((key, i) => codec.encrypt(`message ${i}`, key)));
      // Decrypt in another order, concurrently, after every cache has been filled past any limit.
      const order = manyKeys.map((_, i) => (i * 7) % manyKeys.length);
      const plaintexts = await Promise.all(order.map((i) => codec.decrypt(envelopes[i]!, manyKeys[i]!)));
      plaintexts.forEach((plaintext, n) => {
        expect(new TextDecoder().decode(plaintext)).toBe(`message ${order[n]}`);
      });
      // And each envelope is bound to its own key only.
      for (const i of [0, 1, 75, 149]) {
        await expectJweError(
          () => codec.decrypt(envelopes[i]!, manyKeys[(i + 1) % 150]!),
          'ERR_JWE_DECRYPTION_FAILED',
        );
      }
    });

    it('raw keys with the same first half but different second halves stay distinct', async () => {
      const a = codec.deriveKey(KEY_A);
      const b = a.slice();
      b[31]! ^= 1;
      const envelope = await codec.encrypt('halves', a, { unsafeFixedIv: new Uint8Array(16).fill(9) });
      expect(new TextDecoder().decode(await codec.decrypt(envelope, a))).toBe('halves');
      // Only the MAC half is authenticated: a different AES half passes the tag, then yields other
      // bytes (or, far more likely, bad padding). Either way it must not be the original plaintext.
      const withOtherAesHalf = await codec.decrypt(envelope, b).then(
        (plaintext) => new TextDecoder().decode(plaintext),
        (error: { code?: string }) => error.code,
      );
      expect(withOtherAesHalf).not.toBe('halves');
      const c = a.slice();
      c[0]! ^= 1;
      await expectJweError(() => codec.decrypt(envelope, c), 'ERR_JWE_DECRYPTION_FAILED');
    });
  });

  describe('keyring', () => {
    const ring = () => codec.keyring({ a: KEY_A, b: KEY_B });

    it('picks the key by kid', async () => {
      for (const [kid, key] of [
        ['a', KEY_A],
        ['b', KEY_B],
      ] as const) {
        const envelope = await codec.encrypt(`for ${kid}`, key, { kid });
        expect(new TextDecoder().decode(await codec.decrypt(envelope, ring()))).toBe(`for ${kid}`);
      }
    });

    it('a kid that maps to a different key than the sender used fails authentication', async () => {
      const envelope = await codec.encrypt('x', KEY_A, { kid: 'b' });
      await expectJweError(() => codec.decrypt(envelope, ring()), 'ERR_JWE_DECRYPTION_FAILED');
    });

    it('an unknown kid is ERR_KEY_UNKNOWN, even with a default', async () => {
      const envelope = await codec.encrypt('x', KEY_A, { kid: 'zzz' });
      await expectJweError(() => codec.decrypt(envelope, ring()), 'ERR_KEY_UNKNOWN');
      await expectJweError(
        () => codec.decrypt(envelope, codec.keyring({ a: KEY_A }, { defaultKid: 'a' })),
        'ERR_KEY_UNKNOWN',
      );
    });

    it('no kid: the default kid, else the only key, else ERR_KEY_UNKNOWN', async () => {
      const envelopeA = await codec.encrypt('no kid', KEY_A);
      const envelopeB = await codec.encrypt('no kid', KEY_B);
      expect(
        new TextDecoder().decode(
          await codec.decrypt(envelopeB, codec.keyring({ a: KEY_A, b: KEY_B }, { defaultKid: 'b' })),
        ),
      ).toBe('no kid');
      expect(new TextDecoder().decode(await codec.decrypt(envelopeA, codec.keyring({ only: KEY_A })))).toBe(
        'no kid',
      );
      await expectJweError(() => codec.decrypt(envelopeA, ring()), 'ERR_KEY_UNKNOWN');
    });

    it('a defaultKid that is not in the ring, or an invalid key, is refused when the ring is built', async () => {
      await expectJweError(() => codec.keyring({ a: KEY_A }, { defaultKid: 'b' }), 'ERR_KEY_UNKNOWN');
      await expectJweError(() => codec.keyring({ a: 'too-short' }), 'ERR_KEY_INVALID');
    });

    it('raw 32-byte keys work in a ring', async () => {
      const envelope = await codec.encrypt('raw ring', KEY_B, { kid: 'r' });
      const plaintext = await codec.decrypt(envelope, codec.keyring({ r: codec.deriveKey(KEY_B) }));
      expect(new TextDecoder().decode(plaintext)).toBe('raw ring');
    });
  });
});
