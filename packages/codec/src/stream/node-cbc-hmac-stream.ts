import type { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv, timingSafeEqual } from 'node:crypto';
import { aadLengthBlock, TAG_BYTES } from '../cbc-hmac.js';
import { decryptionFailed } from '../errors.js';
import { StreamMac } from './stream-mac.js';

/*
 * A128CBC-HS256 (RFC 7518 5.2) one chunk at a time with node:crypto's incremental ciphers and
 * HMACs, so memory stays constant whatever the size. The key is MAC_KEY || ENC_KEY (16 + 16).
 * Past its first MiB, a stream may have its MAC computed on the MAC worker beside the cipher
 * (see stream-mac.ts).
 */

/** The tag: the first half of the HMAC over AAD || IV || ciphertext || AL. */
async function finishStreamMac(mac: StreamMac, aadLength: number): Promise<Buffer> {
  await mac.update(aadLengthBlock(aadLength));
  return (await mac.digest()).subarray(0, TAG_BYTES);
}

/** Encrypts a stream: `update` per plaintext chunk, then `final` for the padded tail and the tag. */
export class StreamSealer {
  private readonly cipher;
  private readonly mac: StreamMac;

  constructor(
    key: Uint8Array,
    iv: Uint8Array,
    private readonly aad: Uint8Array,
  ) {
    this.cipher = createCipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    this.mac = new StreamMac(key.subarray(0, 16), [aad, iv]);
  }

  async update(plaintext: Uint8Array): Promise<Buffer> {
    const ciphertext = this.cipher.update(plaintext);
    await this.mac.update(ciphertext);
    return ciphertext;
  }

  async final(): Promise<{ ciphertext: Buffer; tag: Buffer }> {
    const ciphertext = this.cipher.final();
    await this.mac.update(ciphertext);
    return { ciphertext, tag: await finishStreamMac(this.mac, this.aad.length) };
  }

  /** Lets the MAC worker go when the stream ends early. */
  abandon(): void {
    this.mac.release();
  }
}

/**
 * Decrypts a stream while MACing it under one or more AAD candidates (an envelope without
 * `protected` may have been tagged over an empty AAD or over either common header encoding).
 * What `update` returns is unauthenticated until `final` has checked the tag.
 */
export class StreamOpener {
  private readonly decipher;
  private readonly macs: StreamMac[];
  private length = 0;

  constructor(
    key: Uint8Array,
    iv: Uint8Array,
    private readonly aads: readonly Uint8Array[],
  ) {
    this.decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    // Several candidates (no protected header) are rare: they all stay on this thread, rather
    // than each keep a copy of the ciphertext while waiting for the one worker.
    this.macs = aads.map((aad) => new StreamMac(key.subarray(0, 16), [aad, iv], aads.length === 1));
  }

  /** Consumes `ciphertext` (the caller may reuse it once the promise resolves) and returns fresh plaintext. */
  async update(ciphertext: Uint8Array): Promise<Buffer> {
    this.length += ciphertext.length;
    const plaintext = this.decipher.update(ciphertext);
    for (const mac of this.macs) await mac.update(ciphertext);
    return plaintext;
  }

  /**
   * Checks the tag against every AAD candidate in constant time, and only then the padding;
   * returns the last plaintext bytes and which AAD authenticated. Every failure is the one
   * decryption error.
   */
  async final(tag: Uint8Array): Promise<{ plaintext: Buffer; aadIndex: number }> {
    let aadIndex = -1;
    for (const [i, mac] of this.macs.entries()) {
      const expected = await finishStreamMac(mac, this.aads[i]!.length);
      if (tag.length === TAG_BYTES && timingSafeEqual(expected, tag) && aadIndex === -1) aadIndex = i;
    }
    if (aadIndex === -1 || this.length === 0 || this.length % 16 !== 0) throw decryptionFailed();
    try {
      return { plaintext: this.decipher.final(), aadIndex };
    } catch {
      throw decryptionFailed();
    }
  }

  /** Lets the MAC worker go when the stream ends early. */
  abandon(): void {
    for (const mac of this.macs) mac.release();
  }
}
