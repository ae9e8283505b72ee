import { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeBackend } from '../src/backend/node.js';
import type { PreparedKey } from '../src/backend/types.js';
import { filePayloadLength, filePayloadPieces } from '../src/file-payload.js';
import { paddedLength } from '../src/pkcs7.js';
import { backends } from './support/backends.js';
import { patternBytes, toHex } from './support/bytes.js';
import { expectJweError } from './support/errors.js';

/*
 * The one-shot file path works in pieces and inside its own buffers: the payload goes to the cipher
 * as base64 pieces, decryption runs in place in pieces, and the inner base64 is decoded within the
 * decrypted buffer. These tests aim at the edges of every piece: PKCS#7 block boundaries, base64
 * pieces of 48 KiB of bytes / 64 KiB of text, the 64 KiB switch between the chained and the
 * piecewise cipher, and CBC pieces of 256 KiB. Envelopes are checked against
 * node:crypto used directly, not only against the codec's own decryption.
 */

const KEY = 'k3y-f0r-t3st1ng!';
const KiB = 1024;
const PIECE_BYTES = 48 * KiB;
const PIECE_CHARS = 64 * KiB;

/** File sizes whose canonical payload `{"file":"…"}` is `payloadLength` bytes, give or take 2. */
const fileSizeForPayload = (payloadLength: number) => Math.floor(((payloadLength - 11) / 4) * 3);

const FILE_SIZES = [
  0,
  1,
  2,
  3,
  15,
  16,
  17,
  PIECE_BYTES - 1,
  PIECE_BYTES,
  PIECE_BYTES + 1,
  2 * PIECE_BYTES + 2,
  // around the 64 KiB boundary between the chained cipher and the piecewise one
  fileSizeForPayload(64 * KiB - 16) - 1,
  fileSizeForPayload(64 * KiB - 16),
  fileSizeForPayload(64 * KiB),
  fileSizeForPayload(64 * KiB) + 3,
  // padded payloads of several CBC pieces, one of them exactly two
  fileSizeForPayload(512 * KiB - 16),
  200 * KiB + 1,
  1024 * KiB + 1,
];

/** The plaintext of an envelope and its tag check, by node:crypto directly. */
function openByHand(envelope: { protected?: string; iv: string; ciphertext: string; tag: string }) {
  const key = Buffer.concat([Buffer.from(KEY), Buffer.from(KEY)]);
  const iv = Buffer.from(envelope.iv, 'base64url');
  const ciphertext = Buffer.from(envelope.ciphertext, 'base64url');
  const aad = Buffer.from(envelope.protected ?? '', 'latin1');
  const al = Buffer.alloc(8);
  al.writeUInt32BE(aad.length * 8, 4);
  const mac = createHmac('sha256', key.subarray(0, 16)).update(aad).update(iv).update(ciphertext).update(al);
  const tagMatches = mac.digest().subarray(0, 16).toString('base64url') === envelope.tag;
  const decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
  return { tagMatches, plaintext: Buffer.concat([decipher.update(ciphertext), decipher.final()]) };
}

describe('aesCbcEncryptPieces', () => {
  const sync = nodeBackend.sync!;
  const keyBytes = patternBytes(32, 3);
  const iv = patternBytes(16, 4);

  it.each([0, 1, 15, 16, 17])(
    'pieces of 64 KiB + %i bytes, split off-block, encrypt as node:crypto does the whole text',
    (extra) => {
      const text = Buffer.from(patternBytes(64 * KiB + 64 + extra, extra)).toString('latin1');
      const pieces = [text.slice(0, 5), text.slice(5, 40_001), text.slice(40_001)];
      const key = nodeBackend.prepareKey(keyBytes) as PreparedKey;
      const ours = sync.aesCbcEncryptPieces(key, iv, pieces, text.length);
      const cipher = createCipheriv('aes-128-cbc', keyBytes.subarray(16), iv);
      const expected = Buffer.concat([cipher.update(text, 'latin1'), cipher.final()]);
      expect(ours.length).toBe(paddedLength(text.length));
      expect(toHex(ours)).toBe(toHex(expected));
    },
  );

  it('refuses pieces that do not add up to the length it was told', () => {
    const key = nodeBackend.prepareKey(new Uint8Array(32)) as PreparedKey;
    const pieces = ['A'.repeat(70 * KiB), 'B'];
    expect(() => sync.aesCbcEncryptPieces(key, new Uint8Array(16), pieces, 70 * KiB + 1)).not.toThrow();
    expect(() => sync.aesCbcEncryptPieces(key, new Uint8Array(16), pieces, 70 * KiB + 17)).toThrow(
      RangeError,
    );
  });
});

describe.each(backends)('piecewise base64 helpers, $name back end', ({ backend }) => {
  it.each(FILE_SIZES.slice(0, 11))(
    'filePayloadPieces of %i bytes join into the canonical payload',
    (size) => {
      const bytes = patternBytes(size, size + 7);
      const copy = bytes.slice();
      const pieces = [...filePayloadPieces(backend, bytes)];
      expect(pieces.join('')).toBe(`{"file":"${Buffer.from(bytes).toString('base64')}"}`);
      expect(pieces.join('').length).toBe(filePayloadLength(size));
      // Every piece but the framing is at most 64 KiB of text, a whole number of quads but the last.
      for (const piece of pieces.slice(1, -2)) expect(piece.length).toBe(PIECE_CHARS);
      expect(toHex(bytes)).toBe(toHex(copy));
    },
  );

  it.each([0, 3, PIECE_BYTES - 1, PIECE_BYTES, PIECE_BYTES + 1, 2 * PIECE_BYTES + 2])(
    'decodeBase64Within decodes the base64 of %i bytes held after a prefix',
    (size) => {
      const bytes = patternBytes(size, size + 3);
      const text = `{"file":"${Buffer.from(bytes).toString('base64')}"}`;
      const held = new Uint8Array(Buffer.from(text, 'latin1'));
      const decoded = backend.decodeBase64Within(held, 9, held.length - 2, 'The "file" member');
      expect(toHex(decoded)).toBe(toHex(bytes));
    },
  );

  /** Base64 of three pieces' worth of text with `bad` put at character `at` of it. */
  const spoiled = (at: number, bad: string) => {
    const text = Buffer.from(patternBytes(2 * PIECE_BYTES + 300, 5)).toString('base64');
    const chars = `${text.slice(0, at)}${bad}${text.slice(at + bad.length)}`;
    return new Uint8Array(Buffer.from(`..${chars}`, 'latin1'));
  };

  it.each([
    ['a URL-safe character in the second piece', PIECE_CHARS + 10, '-'],
    ['an underscore in the last piece', 2 * PIECE_CHARS + 7, '_'],
    // After an "A" (no trailing bits), so that only the pad's place is wrong.
    ['a pad at the end of the first piece', PIECE_CHARS - 2, 'A='],
    ['two pads ending the first piece', PIECE_CHARS - 3, 'A=='],
    ['a space in the second piece', PIECE_CHARS + 1, ' '],
    ['a byte above 0x7f in the second piece', PIECE_CHARS + 2, '\u00e9'],
    ['a star in the last piece', 2 * PIECE_CHARS + 99, '*'],
  ])('decodeBase64Within refuses %s', async (_name, at, bad) => {
    const held = spoiled(at, bad);
    await expectJweError(
      () => backend.decodeBase64Within(held, 2, held.length, 'The "file" member'),
      'ERR_JWE_INVALID',
    );
  });
});

describe.each(backends)('one-shot files at piece edges, $name back end', ({ codec }) => {
  it.each(FILE_SIZES)(
    'a file of %i bytes: node:crypto reads the envelope, decryptFile returns the file',
    async (size) => {
      const bytes = patternBytes(size, size + 11);
      const copy = bytes.slice();
      const envelope = await codec.encryptFile(bytes, KEY);
      expect(toHex(bytes)).toBe(toHex(copy)); // the caller's bytes are never written
      const { tagMatches, plaintext } = openByHand(envelope);
      expect(tagMatches).toBe(true);
      expect(plaintext.toString('latin1')).toBe(`{"file":"${Buffer.from(bytes).toString('base64')}"}`);
      const back = await codec.decryptFile(envelope, KEY);
      expect(back.length).toBe(size);
      expect(toHex(back)).toBe(toHex(bytes));
    },
  );

  it('raw plaintexts past the piecewise threshold decrypt with decrypt() too', async () => {
    for (const size of [64 * KiB + 1, 256 * KiB, 256 * KiB + 17, 600 * KiB + 5]) {
      const bytes = patternBytes(size, size);
      const envelope = await codec.encrypt(bytes, KEY);
      expect(openByHand(envelope).plaintext.equals(Buffer.from(bytes))).toBe(true);
      expect(toHex(await codec.decrypt(envelope, KEY))).toBe(toHex(bytes));
    }
  });

  it('a large payload with escaped slashes takes the JSON path intact', async () => {
    const bytes = patternBytes(200 * KiB + 2, 9);
    const escaped = Buffer.from(bytes).toString('base64').replaceAll('/', '\\/');
    expect(escaped).toContain('\\/');
    const envelope = await codec.encrypt(`{"file":"${escaped}"}`, KEY);
    expect(toHex(await codec.decryptFile(envelope, KEY))).toBe(toHex(bytes));
  });

  it.each([
    ['a URL-safe character', 3 * PIECE_CHARS + 5, '-'],
    ['a pad inside the text', PIECE_CHARS + 3, '='],
    ['a control character', 2 * PIECE_CHARS, '\t'],
  ])('a large file payload with %s deep inside is refused', async (_name, at, bad) => {
    const text = Buffer.from(patternBytes(300 * KiB, 4)).toString('base64');
    const payload = `{"file":"${text.slice(0, at)}${bad}${text.slice(at + 1)}"}`;
    const envelope = await codec.encrypt(payload, KEY);
    await expectJweError(() => codec.decryptFile(envelope, KEY), 'ERR_JWE_INVALID');
  });
});
