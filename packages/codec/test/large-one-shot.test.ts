import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import * as codec from '../src/index.js';
import { b64u, flipBit, fromB64u } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import { joseNpmDecrypt, joseNpmEncrypt, joseNpmEncryptCompact } from './support/peers.js';
import { bytesFrom } from './support/streams.js';

/*
 * One-shot envelopes of a few MiB, the sizes at which large inputs once took another code path:
 * they must still agree with npm jose both ways, in both serializations, and fail like small ones.
 */

const KEY = 'l4rge-0ne-sh0t!!';
const MiB = 2 ** 20;
const filePayload = (file: Uint8Array) =>
  new TextEncoder().encode(JSON.stringify({ file: Buffer.from(file).toString('base64') }));

describe('one-shot envelopes of a few MiB', () => {
  it.each([MiB - 1, 3 * MiB + 7])(
    'encryptFile/decryptFile of %d bytes agree with jose both ways',
    async (size) => {
      const file = bytesFrom(size, size);
      const ours = await codec.encryptFile(file, KEY, { kid: 'k1' });
      const { kid: _kid, ...flattened } = ours;
      expect(Buffer.from(await joseNpmDecrypt(KEY, flattened)).equals(Buffer.from(filePayload(file)))).toBe(
        true,
      );
      const back = await codec.decryptFile(ours, KEY);
      expect(Buffer.from(back).equals(file)).toBe(true);
      expect(back.buffer).toBeInstanceOf(ArrayBuffer);
      const fromJose = codec.parseEnvelope(await joseNpmEncrypt(KEY, filePayload(file)));
      expect(Buffer.from(await codec.decryptFile(fromJose, KEY)).equals(file)).toBe(true);
    },
  );

  it('encrypt/decrypt of 2 MiB raw bytes, flattened and compact, as object, JSON text and bytes', async () => {
    const plaintext = bytesFrom(7, 2 * MiB + 5);
    const ours = await codec.encrypt(plaintext, KEY);
    expect(Buffer.from(await joseNpmDecrypt(KEY, codec.toCompact(ours))).equals(plaintext)).toBe(true);
    const compact = await joseNpmEncryptCompact(KEY, plaintext);
    const json = JSON.stringify(ours);
    for (const input of [ours, codec.toCompact(ours), compact, json, Buffer.from(json)]) {
      expect(Buffer.from(await codec.decrypt(input, KEY)).equals(plaintext)).toBe(true);
    }
  });

  it('every tampered member is the one decryption error', async () => {
    const envelope = await codec.encryptFile(bytesFrom(3, MiB), KEY);
    const ciphertext = fromB64u(envelope.ciphertext);
    const tampered = [
      ...[0, 8 * 700_000, ciphertext.length * 8 - 1].map((bit) => ({
        ...envelope,
        ciphertext: b64u(flipBit(ciphertext, bit)),
      })),
      { ...envelope, iv: b64u(flipBit(fromB64u(envelope.iv), 5)) },
      { ...envelope, tag: b64u(flipBit(fromB64u(envelope.tag), 127)) },
      { ...envelope, ciphertext: b64u(ciphertext.subarray(0, ciphertext.length - 16)) },
    ];
    for (const candidate of tampered) {
      await expectJweError(() => codec.decryptFile(candidate, KEY), 'ERR_JWE_DECRYPTION_FAILED');
    }
    await expectJweError(() => codec.decryptFile(envelope, 'an0ther-k3y-0000'), 'ERR_JWE_DECRYPTION_FAILED');
  });

  it('a stray character anywhere in a large ciphertext is ERR_JWE_INVALID, before any crypto', async () => {
    const envelope = await codec.encryptFile(bytesFrom(4, MiB), KEY);
    const text = envelope.ciphertext;
    for (const [at, stray] of [
      [0, '+'],
      [Math.floor(text.length / 2), '/'],
      [text.length - 1, '='],
      [777_777, ' '],
      [123_456, '\u0142'],
    ] as const) {
      const ciphertext = `${text.slice(0, at)}${stray}${text.slice(at + 1)}`;
      await expectJweError(() => codec.decryptFile({ ...envelope, ciphertext }, KEY), 'ERR_JWE_INVALID');
    }
  });
});
