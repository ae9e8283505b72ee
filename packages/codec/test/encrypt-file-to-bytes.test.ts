import { Buffer, constants } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import * as webCodec from '../dist/index.js';
import { backends } from './support/backends.js';
import { expectJweError } from './support/errors.js';
import { joseNpmDecrypt, jwcryptoDecrypt } from './support/peers.js';
import { bytesFrom } from './support/streams.js';

/*
 * encryptFileToBytes is encryptFile serialised to UTF-8: the same bytes JSON.stringify writes for
 * the same IV, encoded, on every size path (the chained cipher up to 64 KiB of payload, the
 * piece-by-piece one above it, and the in-place base64url encoding's pieces of 48 KiB of
 * ciphertext), and with a kid that JSON escapes or that is not ASCII.
 */

const KEY = 'k3y-f0r-t3st1ng!';
const IV = new Uint8Array(16).map((_, i) => i * 7);
const MiB = 2 ** 20;
const SIZES = [
  0,
  1,
  2,
  3,
  47,
  48,
  1000,
  36_858,
  36_864,
  49_149,
  49_152,
  49_155,
  98_304,
  MiB + 1,
  3 * MiB + 2,
];
const KIDS = [undefined, 'k1', 'quote " backslash \\ \u2028 é', 'clé-ß-✓-🔑', 'lone \ud800 surrogate'];
const payloadOf = (file: Uint8Array) => `{"file":"${Buffer.from(file).toString('base64')}"}`;

describe.each(backends)('encryptFileToBytes, $name back end', ({ codec }) => {
  it.each(SIZES)(
    'a file of %d bytes: the UTF-8 of JSON.stringify(encryptFile), read back by the codec',
    async (size) => {
      const file = bytesFrom(size, size);
      for (const kid of KIDS) {
        const options = { unsafeFixedIv: IV, ...(kid === undefined ? {} : { kid }) };
        const bytes = await codec.encryptFileToBytes(file, KEY, options);
        expect(bytes).toBeInstanceOf(Uint8Array);
        const expected = Buffer.from(JSON.stringify(await codec.encryptFile(file, KEY, options)), 'utf8');
        expect(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(expected)).toBe(true);
        expect(Buffer.from(await codec.decryptFile(bytes, KEY)).equals(file)).toBe(true);
      }
    },
  );

  it('npm jose and jwcrypto open what it writes, with a fresh IV each call', async () => {
    const files = [bytesFrom(9, 70_000), bytesFrom(4, 3 * MiB + 2)];
    const sealed = await Promise.all(files.map((file) => codec.encryptFileToBytes(file, KEY, { kid: 'k1' })));
    const again = await codec.encryptFileToBytes(files[0]!, KEY, { kid: 'k1' });
    const envelopes = sealed.map((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
    expect(envelopes[0].iv).not.toBe(JSON.parse(new TextDecoder().decode(again)).iv);
    const byJwcrypto = await jwcryptoDecrypt(KEY, envelopes);
    for (const [i, file] of files.entries()) {
      const { kid, ...flattened } = envelopes[i];
      expect(kid).toBe('k1');
      expect(Buffer.from(await joseNpmDecrypt(KEY, flattened)).toString('latin1')).toBe(payloadOf(file));
      const result = byJwcrypto[i]!;
      expect(result.ok && Buffer.from(result.plaintext).toString('latin1')).toBe(payloadOf(file));
    }
  });

  it('hands each caller bytes of its own: a second call does not change the first one', async () => {
    const file = bytesFrom(2, 200_000);
    const first = await codec.encryptFileToBytes(file, KEY, { unsafeFixedIv: IV });
    const copy = Uint8Array.from(first);
    await codec.encryptFileToBytes(bytesFrom(3, 200_000), KEY, { unsafeFixedIv: IV });
    expect(Buffer.from(first).equals(Buffer.from(copy))).toBe(true);
  });

  it('refuses what encryptFile refuses, with the same kind of error', async () => {
    await expect(codec.encryptFileToBytes('text' as never, KEY)).rejects.toThrow(
      /encryptFileToBytes: the file must be a Uint8Array/,
    );
    await expect(codec.encryptFileToBytes(new Uint8Array(1), KEY, { kid: 7 as never })).rejects.toThrow(
      TypeError,
    );
    await expect(
      codec.encryptFileToBytes(new Uint8Array(1), KEY, { unsafeFixedIv: new Uint8Array(8) }),
    ).rejects.toThrow(/the IV must be 16 bytes/);
    await expectJweError(
      () => codec.encryptFileToBytes(new Uint8Array(1), new Uint8Array(5)),
      'ERR_KEY_INVALID',
    );
  });
});

describe('encryptFileToBytes in the published WebCrypto build', () => {
  it('gives the bytes the Node build gives for the same IV', async () => {
    const file = bytesFrom(5, 100_000);
    const options = { kid: 'k1', unsafeFixedIv: IV };
    const web = await webCodec.encryptFileToBytes(file, KEY, options);
    const node = await backends[0]!.codec.encryptFileToBytes(file, KEY, options);
    expect(Buffer.from(web).equals(Buffer.from(node))).toBe(true);
  });
});

describe('encryptFileToBytes at the one-string limit (node back end)', () => {
  const { codec } = backends[0]!;
  it('refuses, before reading it, a file whose envelope encryptFile could not make', async () => {
    // Untouched zero pages: the refusal comes before any byte is read.
    const tooLarge = new Uint8Array(Math.ceil((constants.MAX_STRING_LENGTH * 3) / 4));
    await expect(codec.encryptFileToBytes(tooLarge, KEY)).rejects.toThrow(
      /encryptFileToBytes: a file of \d+ bytes makes an envelope longer than the longest string.*encryptFileStream/,
    );
  });
});
