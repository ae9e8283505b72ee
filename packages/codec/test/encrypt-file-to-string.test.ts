import { Buffer, constants } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { backends } from './support/backends.js';
import { expectJweError } from './support/errors.js';
import { joseNpmDecrypt } from './support/peers.js';
import { bytesFrom } from './support/streams.js';

/*
 * encryptFileToString is encryptFile serialised: the same bytes JSON.stringify writes for the
 * same IV, on every size path (the chained cipher up to 64 KiB of payload, the piece-by-piece
 * one above it, and the in-place base64url encoding's pieces of 48 KiB of ciphertext).
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
const payloadOf = (file: Uint8Array) => `{"file":"${Buffer.from(file).toString('base64')}"}`;

describe.each(backends)('encryptFileToString, $name back end', ({ codec }) => {
  it.each(SIZES)(
    'a file of %d bytes: the bytes JSON.stringify(encryptFile) gives, read back by both',
    async (size) => {
      const file = bytesFrom(size, size);
      for (const kid of [undefined, 'k1', 'quote " backslash \\ \u2028 é']) {
        const options = { unsafeFixedIv: IV, ...(kid === undefined ? {} : { kid }) };
        const text = await codec.encryptFileToString(file, KEY, options);
        expect(typeof text).toBe('string');
        expect(text).toBe(JSON.stringify(await codec.encryptFile(file, KEY, options)));
        expect(Buffer.from(await codec.decryptFile(text, KEY)).equals(file)).toBe(true);
      }
    },
  );

  it('npm jose opens what it writes, with a fresh IV each call', async () => {
    const file = bytesFrom(9, 70_000);
    const first = await codec.encryptFileToString(file, KEY, { kid: 'k1' });
    const second = await codec.encryptFileToString(file, KEY, { kid: 'k1' });
    expect(JSON.parse(first).iv).not.toBe(JSON.parse(second).iv);
    const { kid, ...flattened } = JSON.parse(first);
    expect(kid).toBe('k1');
    expect(Buffer.from(await joseNpmDecrypt(KEY, flattened)).toString('latin1')).toBe(payloadOf(file));
  });

  it('refuses what encryptFile refuses, with the same kind of error', async () => {
    await expect(codec.encryptFileToString('text' as never, KEY)).rejects.toThrow(
      /encryptFileToString: the file must be a Uint8Array/,
    );
    await expect(codec.encryptFileToString(new Uint8Array(1), KEY, { kid: 7 as never })).rejects.toThrow(
      TypeError,
    );
    await expect(
      codec.encryptFileToString(new Uint8Array(1), KEY, { unsafeFixedIv: new Uint8Array(8) }),
    ).rejects.toThrow(/the IV must be 16 bytes/);
    await expectJweError(
      () => codec.encryptFileToString(new Uint8Array(1), new Uint8Array(5)),
      'ERR_KEY_INVALID',
    );
  });
});

describe('encryptFileToString at the one-string limit (node back end)', () => {
  const { codec } = backends[0]!;
  it('refuses, before reading it, a file whose envelope could not be one string', async () => {
    // Untouched zero pages: the refusal comes before any byte is read.
    const tooLarge = new Uint8Array(Math.ceil((constants.MAX_STRING_LENGTH * 3) / 4));
    await expect(codec.encryptFileToString(tooLarge, KEY)).rejects.toThrow(
      /encryptFileToString: a file of \d+ bytes makes an envelope longer than the longest string.*encryptFileStream/,
    );
  });
});
