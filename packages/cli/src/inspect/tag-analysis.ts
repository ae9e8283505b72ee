import { createDecipheriv, createHmac } from 'node:crypto';
import { PROTECTED_COMPACT, PROTECTED_SPACED, TAG_BYTES } from '@jwe-transport/codec';
import type { KeyEntry } from '../keys.js';

/*
 * The checks behind "which causes can be ruled out": A128CBC-HS256's tag recomputed by hand
 * (RFC 7518 section 5.2.2.1: HMAC-SHA-256 over AAD || IV || ciphertext || AL with the first key
 * half, truncated to 16 bytes) under every reading of the AAD a sender might have used, so a
 * failure can be narrowed down. The codec exposes only the verdict, on purpose; a debugging tool
 * needs the reasons.
 */

export interface AadReading {
  label: string;
  protectedText: string;
}

export interface TagMatch {
  entry: KeyEntry;
  reading: AadReading;
  /** 'truncated' is the standard 16-byte tag; 'full' is the untruncated 32-byte HMAC. */
  form: 'truncated' | 'full';
}

export function aadReadings(protectedText: string | undefined): AadReading[] {
  const readings: AadReading[] = [];
  if (protectedText !== undefined) readings.push({ label: 'the protected header as sent', protectedText });
  readings.push({ label: 'an empty AAD (no protected header, as RFC 7516 defines it)', protectedText: '' });
  for (const [text, label] of [
    [PROTECTED_COMPACT, 'the header {"alg":"dir","enc":"A128CBC-HS256"}'],
    [PROTECTED_SPACED, 'the header {"alg": "dir", "enc": "A128CBC-HS256"} (with spaces)'],
  ] as const) {
    if (text !== protectedText) readings.push({ label, protectedText: text });
  }
  return readings;
}

function aadLengthBits(length: number): Buffer {
  const block = Buffer.alloc(8);
  block.writeBigUInt64BE(BigInt(length) * 8n);
  return block;
}

export function fullHmac(key: Uint8Array, aad: Buffer, iv: Uint8Array, ciphertext: Uint8Array): Buffer {
  return createHmac('sha256', key.subarray(0, 16))
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(aadLengthBits(aad.length))
    .digest();
}

export function findTagMatch(
  entries: readonly KeyEntry[],
  readings: readonly AadReading[],
  aadMember: string | undefined,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): TagMatch | undefined {
  for (const entry of entries) {
    for (const reading of readings) {
      const aadText =
        aadMember === undefined ? reading.protectedText : `${reading.protectedText}.${aadMember}`;
      const mac = fullHmac(entry.key, Buffer.from(aadText, 'latin1'), iv, ciphertext);
      if (tag.length === TAG_BYTES && mac.subarray(0, TAG_BYTES).equals(tag))
        return { entry, reading, form: 'truncated' };
      if (tag.length === 32 && mac.equals(tag)) return { entry, reading, form: 'full' };
    }
  }
  return undefined;
}

/** AES-128-CBC with the second key half; only called once a tag has been matched, so the bytes are authentic. */
export function decryptAuthenticated(
  key: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Buffer | undefined {
  try {
    const decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return undefined;
  }
}
