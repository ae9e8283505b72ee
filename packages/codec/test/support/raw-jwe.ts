import { Buffer } from 'node:buffer';
import { createCipheriv, createHmac } from 'node:crypto';
import { b64u } from './bytes.js';

/*
 * An independent A128CBC-HS256 written directly against node:crypto, so tests can build envelopes
 * the codec would never emit (no protected member, spaced headers, broken padding under a valid
 * tag, 32-byte tags) without going through the code under test.
 */

export function aesCbc(encKey: Uint8Array, iv: Uint8Array, data: Uint8Array, pkcs7 = true): Uint8Array {
  const cipher = createCipheriv('aes-128-cbc', encKey, iv).setAutoPadding(pkcs7);
  return new Uint8Array(Buffer.concat([cipher.update(data), cipher.final()]));
}

/** Full HMAC-SHA-256 over AAD || IV || ciphertext || AL, as RFC 7518 section 5.2.2.1 builds it. */
export function fullMac(
  macKey: Uint8Array,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Uint8Array {
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length) * 8n);
  return new Uint8Array(
    createHmac('sha256', macKey).update(aad).update(iv).update(ciphertext).update(al).digest(),
  );
}

export interface RawSealInput {
  /** The 32-byte content key: MAC key then AES key. */
  key: Uint8Array;
  iv: Uint8Array;
  plaintext: Uint8Array;
  /** The AAD as text: the protected member exactly as sent ('' when there is none). */
  aad: string;
  /** false: encrypt `plaintext` as raw blocks without adding PKCS#7 padding. */
  pkcs7?: boolean;
}

export interface RawSealed {
  ciphertext: Uint8Array;
  tag: Uint8Array;
  mac: Uint8Array;
}

export function rawSeal({ key, iv, plaintext, aad, pkcs7 = true }: RawSealInput): RawSealed {
  const ciphertext = aesCbc(key.subarray(16, 32), iv, plaintext, pkcs7);
  const mac = fullMac(key.subarray(0, 16), Buffer.from(aad, 'latin1'), iv, ciphertext);
  return { ciphertext, tag: mac.subarray(0, 16), mac };
}

/** A flattened envelope from raw parts; `protectedText` undefined leaves the member out. */
export function rawEnvelope(input: RawSealInput & { protectedText?: string }): {
  iv: string;
  ciphertext: string;
  tag: string;
  protected?: string;
} {
  const sealed = rawSeal(input);
  const envelope: { iv: string; ciphertext: string; tag: string; protected?: string } = {
    iv: b64u(input.iv),
    ciphertext: b64u(sealed.ciphertext),
    tag: b64u(sealed.tag),
  };
  if (input.protectedText !== undefined) return { protected: input.protectedText, ...envelope };
  return envelope;
}
