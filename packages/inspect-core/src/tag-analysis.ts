import { PROTECTED_COMPACT, PROTECTED_SPACED, TAG_BYTES } from '@jwe-transport/codec';
import { concatBytes, equalBytes, latin1Bytes, ownBytes } from './bytes.js';
import type { KeyEntry } from './keys.js';

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

function aadLengthBits(length: number): Uint8Array {
  const block = new Uint8Array(8);
  new DataView(block.buffer).setBigUint64(0, BigInt(length) * 8n);
  return block;
}

const subtle = () => globalThis.crypto.subtle;

/** HMAC-SHA-256 over AAD || IV || ciphertext || AL with the MAC half of the key (RFC 7518 section 5.2.2.1), untruncated. */
export async function fullHmac(
  key: Uint8Array,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const macKey = await subtle().importKey(
    'raw',
    ownBytes(key.subarray(0, 16)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const data = concatBytes(aad, iv, ciphertext, aadLengthBits(aad.length));
  return new Uint8Array(await subtle().sign('HMAC', macKey, data));
}

export async function findTagMatch(
  entries: readonly KeyEntry[],
  readings: readonly AadReading[],
  aadMember: string | undefined,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Promise<TagMatch | undefined> {
  for (const entry of entries) {
    for (const reading of readings) {
      const aadText =
        aadMember === undefined ? reading.protectedText : `${reading.protectedText}.${aadMember}`;
      const mac = await fullHmac(entry.key, latin1Bytes(aadText), iv, ciphertext);
      if (tag.length === TAG_BYTES && equalBytes(mac.subarray(0, TAG_BYTES), tag))
        return { entry, reading, form: 'truncated' };
      if (tag.length === 32 && equalBytes(mac, tag)) return { entry, reading, form: 'full' };
    }
  }
  return undefined;
}

/**
 * AES-128-CBC with the second key half; only called once a tag has been matched, so the bytes are
 * authentic. WebCrypto checks the PKCS#7 padding and fails on a bad one.
 */
export async function decryptAuthenticated(
  key: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array | undefined> {
  try {
    const aesKey = await subtle().importKey('raw', ownBytes(key.subarray(16, 32)), 'AES-CBC', false, [
      'decrypt',
    ]);
    return new Uint8Array(
      await subtle().decrypt({ name: 'AES-CBC', iv: ownBytes(iv) }, aesKey, ownBytes(ciphertext)),
    );
  } catch {
    return undefined;
  }
}
