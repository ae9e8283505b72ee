import type { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv, createHmac, type Hmac, timingSafeEqual } from 'node:crypto';
import { aadLengthBlock } from '../cbc-hmac.js';
import { decryptionFailed } from '../errors.js';
import { TAG_BYTES } from '../sizes.js';

/*
 * A128CBC-HS256 (RFC 7518 5.2) one chunk at a time with node:crypto's incremental ciphers and
 * HMACs, so memory stays constant whatever the size. The key is MAC_KEY || ENC_KEY (16 + 16).
 */

function startMac(key: Uint8Array, aad: Uint8Array, iv: Uint8Array): Hmac {
  return createHmac('sha256', key.subarray(0, 16)).update(aad).update(iv);
}

/** The tag: the first half of the HMAC over AAD || IV || ciphertext || AL. */
function finishMac(mac: Hmac, aadLength: number): Buffer {
  return mac.update(aadLengthBlock(aadLength)).digest().subarray(0, TAG_BYTES);
}

/** Encrypts a stream: `update` per plaintext chunk, then `final` for the padded tail and the tag. */
export class StreamSealer {
  private readonly cipher;
  private readonly mac: Hmac;

  constructor(
    key: Uint8Array,
    iv: Uint8Array,
    private readonly aad: Uint8Array,
  ) {
    this.cipher = createCipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    this.mac = startMac(key, aad, iv);
  }

  update(plaintext: Uint8Array): Buffer {
    const ciphertext = this.cipher.update(plaintext);
    this.mac.update(ciphertext);
    return ciphertext;
  }

  final(): { ciphertext: Buffer; tag: Buffer } {
    const ciphertext = this.cipher.final();
    this.mac.update(ciphertext);
    return { ciphertext, tag: finishMac(this.mac, this.aad.length) };
  }
}

/**
 * Decrypts a stream while MACing it under one or more AAD candidates (an envelope without
 * `protected` may have been tagged over an empty AAD or over either common header encoding).
 * What `update` returns is unauthenticated until `final` has checked the tag.
 */
export class StreamOpener {
  private readonly decipher;
  private readonly macs: Hmac[];
  private length = 0;

  constructor(
    key: Uint8Array,
    iv: Uint8Array,
    private readonly aads: readonly Uint8Array[],
  ) {
    this.decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    this.macs = aads.map((aad) => startMac(key, aad, iv));
  }

  /** Consumes `ciphertext` (the caller may reuse it once this returns) and returns fresh plaintext. */
  update(ciphertext: Uint8Array): Buffer {
    this.length += ciphertext.length;
    const plaintext = this.decipher.update(ciphertext);
    for (const mac of this.macs) mac.update(ciphertext);
    return plaintext;
  }

  /**
   * Checks the tag against every AAD candidate in constant time, and only then the padding;
   * returns the last plaintext bytes and which AAD authenticated. Every failure is the one
   * decryption error.
   */
  final(tag: Uint8Array): { plaintext: Buffer; aadIndex: number } {
    let aadIndex = -1;
    for (const [i, mac] of this.macs.entries()) {
      const expected = finishMac(mac, this.aads[i]!.length);
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
