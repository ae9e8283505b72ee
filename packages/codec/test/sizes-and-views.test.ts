import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { nodeBackend } from '../src/backend/node.js';
import { isJweError } from '../src/errors.js';
import { backends } from './support/backends.js';
import { patternBytes, toHex } from './support/bytes.js';
import { codecOn } from './support/codec-on.js';
import { joseNpmDecrypt, jwcryptoDecrypt } from './support/peers.js';

/*
 * Sizes around the block size and around 64 KiB (where a back end may switch strategy), large
 * payloads, and plaintexts that are views into larger buffers (Node's pooled Buffers are such views).
 */

const KEY = 's1zes-and-v1ews!';
const [node, web] = backends as [(typeof backends)[0], (typeof backends)[1]];
const SIZES = [65_519, 65_520, 65_535, 65_536, 65_537, 65_552, 262_147, (1 << 20) + 5];

describe('sizes', () => {
  it.each(SIZES)(
    '%d bytes: identical envelopes from both back ends, decrypted by both and by npm jose',
    async (size) => {
      const plaintext = patternBytes(size, size);
      const iv = patternBytes(16, size + 1);
      const fromNode = await node.codec.encrypt(plaintext, KEY, { unsafeFixedIv: iv });
      const fromWeb = await web.codec.encrypt(plaintext, KEY, { unsafeFixedIv: iv });
      expect(fromWeb).toEqual(fromNode);
      expect(toHex(await node.codec.decrypt(fromWeb, KEY))).toBe(toHex(plaintext));
      expect(toHex(await web.codec.decrypt(fromNode, KEY))).toBe(toHex(plaintext));
      expect(toHex(await joseNpmDecrypt(KEY, fromNode))).toBe(toHex(plaintext));
    },
  );

  it('a mix of small and large messages with one key keeps every envelope correct (jwcrypto checks)', async () => {
    const plaintexts = [10, 70_000, 16, 1, 65_536, 0, 100_000, 33].map((n, i) => patternBytes(n, i + 50));
    for (const { codec } of backends) {
      const envelopes = [];
      for (const plaintext of plaintexts) envelopes.push(await codec.encrypt(plaintext, KEY));
      const results = await jwcryptoDecrypt(KEY, envelopes);
      results.forEach((result, i) => {
        expect(result).toMatchObject({ ok: true });
        if (result.ok) expect(toHex(result.plaintext)).toBe(toHex(plaintexts[i]!));
      });
    }
  });

  // The portable base64 of the web back end is much slower than Buffer's, so it gets a smaller file.
  it.each(backends.map((b) => ({ ...b, mib: b.name === 'node' ? 8 : 2 })))(
    '$name: a $mib MiB file envelope round-trips',
    async ({ codec, mib }) => {
      const file = patternBytes(mib << 20, 99);
      const envelope = await codec.encryptFile(file, KEY);
      const back = await codec.decryptFile(envelope, KEY);
      expect(back.length).toBe(file.length);
      expect(Buffer.compare(Buffer.from(back), Buffer.from(file))).toBe(0);
    },
  );
});

describe.each(backends)('plaintexts that are views into larger buffers, $name back end', ({ codec }) => {
  const views = fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 3000 }), fc.nat(), fc.nat())
    .map(([backing, a, b]) => {
      const start = a % backing.length;
      const end = start + (b % (backing.length - start + 1));
      return backing.subarray(start, end);
    });

  it('encrypt, encryptFile and decrypt honour byteOffset and length', async () => {
    await fc.assert(
      fc.asyncProperty(views, async (view) => {
        const copy = view.slice();
        const iv = new Uint8Array(16).fill(3);
        const fromView = await codec.encrypt(view, KEY, { unsafeFixedIv: iv });
        expect(fromView).toEqual(await codec.encrypt(copy, KEY, { unsafeFixedIv: iv }));
        expect(toHex(await codec.decrypt(fromView, KEY))).toBe(toHex(copy));
        const file = await codec.encryptFile(view, KEY, { unsafeFixedIv: iv });
        expect(file).toEqual(await codec.encryptFile(copy, KEY, { unsafeFixedIv: iv }));
        expect(toHex(view)).toBe(toHex(copy));
      }),
      { numRuns: 100 },
    );
  });

  it('envelope JSON bytes given as a view into a larger buffer', async () => {
    const envelope = await codec.encrypt('inside a view', KEY);
    const json = Buffer.from(`xxxx${JSON.stringify(envelope)}yyyy`);
    const view = new Uint8Array(json.buffer, json.byteOffset + 4, json.length - 8);
    expect(new TextDecoder().decode(await codec.decrypt(view, KEY))).toBe('inside a view');
  });

  it('a fixed IV given as a view is used as those 16 bytes', async () => {
    const backing = patternBytes(40, 8);
    const view = backing.subarray(7, 23);
    const envelope = await codec.encrypt('iv view', KEY, { unsafeFixedIv: view });
    expect(envelope.iv).toBe(Buffer.from(view).toString('base64url'));
    expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY))).toBe('iv view');
  });

  it('the plaintext a caller passed is not modified by encryption', async () => {
    const plaintext = patternBytes(1000, 5);
    const before = toHex(plaintext);
    await codec.encrypt(plaintext, KEY);
    await codec.encryptFile(plaintext, KEY);
    expect(toHex(plaintext)).toBe(before);
  });

  it('decrypted plaintexts stay intact while more messages are processed', async () => {
    const plaintexts = Array.from({ length: 50 }, (_, i) => patternBytes(1 + i * 37, i));
    const envelopes = await Promise.all(plaintexts.map((p) => codec.encrypt(p, KEY)));
    const decrypted = [];
    for (const envelope of envelopes) decrypted.push(await codec.decrypt(envelope, KEY));
    for (const p of plaintexts) await codec.decrypt(await codec.encrypt(p, KEY), KEY);
    decrypted.forEach((d, i) => {
      expect(toHex(d)).toBe(toHex(plaintexts[i]!));
    });
  });
});

describe.each(backends)('kid option, $name back end', ({ codec }) => {
  it('a kid that is not a string is refused by encrypt or at least by our own decrypt', async () => {
    let envelope: unknown;
    try {
      envelope = await codec.encrypt('x', KEY, { kid: 42 as never });
    } catch (error) {
      expect(error instanceof TypeError || isJweError(error)).toBe(true);
      return;
    }
    // If encrypt lets it through, the envelope it made must at least be one it reads back.
    expect(new TextDecoder().decode(await codec.decrypt(envelope as never, KEY))).toBe('x');
  });
});

describe('content too large for a one-shot envelope (Node)', () => {
  it('is refused before any encoding with a RangeError that names the streaming function', async () => {
    // Zero-filled memory is mapped lazily, so these large inputs cost nothing until touched.
    const encodeBase64 = vi.fn(nodeBackend.encodeBase64);
    const spied = codecOn({ ...nodeBackend, encodeBase64 });
    await expect(spied.encryptFile(new Uint8Array(400 * 2 ** 20), KEY)).rejects.toThrow(
      /^encryptFile: a file of 419430400 bytes makes an envelope longer .*Use encryptFileStream\(\)/,
    );
    expect(encodeBase64).not.toHaveBeenCalled();
    await expect(node.codec.encryptFile(new Uint8Array(400 * 2 ** 20), KEY)).rejects.toThrow(RangeError);
    await expect(node.codec.encrypt(new Uint8Array(520 * 2 ** 20), KEY)).rejects.toThrow(
      /^encrypt: a plaintext of 545259520 bytes .*Use encryptStream\(\)/,
    );
    expect(() => spied.encryptSync(new Uint8Array(520 * 2 ** 20), KEY)).toThrow(RangeError);
  });

  it('the limit is the envelope ciphertext length, checked to the character', async () => {
    // A back end that can hold only 1000-character strings: 735 bytes give a 736-byte ciphertext
    // (982 base64url characters), 736 bytes give 752 (1003 characters).
    const small = codecOn({ ...nodeBackend, maxStringLength: 1000 });
    expect((await small.encrypt(new Uint8Array(735), KEY)).ciphertext).toHaveLength(982);
    await expect(small.encrypt(new Uint8Array(736), KEY)).rejects.toThrow(RangeError);
  });
});
