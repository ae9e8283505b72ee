import { createCipheriv, createDecipheriv, timingSafeEqual } from 'node:crypto';
import { TAG_BYTES } from '../cbc-hmac.js';
import { decryptionFailed } from '../errors.js';
import type { CiphertextMac } from './ciphertext-mac.js';

/*
 * A128CBC-HS256 (RFC 7518 5.2) one chunk at a time: node:crypto's incremental AES-128-CBC on
 * this thread, the HMAC and the ciphertext's base64url in a `CiphertextMac` (often another
 * thread). The 32-byte key is MAC_KEY || ENC_KEY.
 */

/** Encrypts a stream into base64url ciphertext text: `seal` per plaintext chunk, then `finish`. */
export class StreamSealer {
  private readonly cipher;

  constructor(
    key: Uint8Array,
    iv: Uint8Array,
    private readonly mac: CiphertextMac,
  ) {
    this.cipher = createCipheriv('aes-128-cbc', key.subarray(16, 32), iv);
  }

  /** Resolves with the base64url text of the ciphertext so far (calls resolve in order). */
  seal(plaintext: Uint8Array): Promise<Uint8Array> {
    return this.mac.encode(this.cipher.update(plaintext), false);
  }

  /** The padded last block's text and the tag. */
  async finish(): Promise<{ text: Uint8Array; tag: Uint8Array }> {
    const text = await this.mac.encode(this.cipher.final(), true);
    const [mac] = await this.mac.finish();
    return { text, tag: mac!.subarray(0, TAG_BYTES) };
  }
}

/**
 * Decrypts ciphertext that the `CiphertextMac` has MACed. What `update` returns is
 * unauthenticated until `final` has checked the tag.
 */
export class StreamOpener {
  private readonly decipher;
  private length = 0;

  constructor(
    key: Uint8Array,
    iv: Uint8Array,
    private readonly mac: CiphertextMac,
  ) {
    this.decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
  }

  update(ciphertext: Uint8Array): Uint8Array {
    this.length += ciphertext.length;
    return this.decipher.update(ciphertext);
  }

  /**
   * Checks the tag against every AAD candidate in constant time, and only then the padding;
   * returns the last plaintext bytes and which AAD authenticated. Every failure is the one
   * decryption error.
   */
  async final(tag: Uint8Array): Promise<{ plaintext: Uint8Array; aadIndex: number }> {
    const macs = await this.mac.finish();
    let aadIndex = -1;
    for (const [i, mac] of macs.entries()) {
      const expected = mac.subarray(0, TAG_BYTES);
      if (tag.length === TAG_BYTES && timingSafeEqual(expected, tag) && aadIndex === -1) aadIndex = i;
    }
    if (aadIndex === -1 || this.length === 0 || this.length % 16 !== 0) throw decryptionFailed();
    try {
      return { plaintext: this.decipher.final(), aadIndex };
    } catch {
      throw decryptionFailed();
    }
  }
}
