import type { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv, timingSafeEqual } from 'node:crypto';
import { TAG_BYTES } from '../cbc-hmac.js';
import { decryptionFailed } from '../errors.js';
import { streamWorkerLink } from '../parallel/node.js';
import { StreamMac } from '../parallel/stream-mac.js';

/*
 * A128CBC-HS256 (RFC 7518 5.2) one chunk at a time with node:crypto's incremental ciphers and
 * HMACs, so memory stays constant whatever the size. The key is MAC_KEY || ENC_KEY (16 + 16).
 * The HMACs run on the codec's helper worker beside the AES work once a stream passes 1 MiB
 * (parallel/stream-mac.ts); callers await `ready()` between chunks for its back-pressure.
 */

const startMac = (key: Uint8Array, aads: readonly Uint8Array[], iv: Uint8Array) =>
  new StreamMac(streamWorkerLink, key.subarray(0, 16), aads, iv);

/** Encrypts a stream: `update` per plaintext chunk, then `final` for the padded tail and the tag. */
export class StreamSealer {
  private readonly cipher;
  private readonly mac: StreamMac;

  constructor(key: Uint8Array, iv: Uint8Array, aad: Uint8Array) {
    this.cipher = createCipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    this.mac = startMac(key, [aad], iv);
  }

  update(plaintext: Uint8Array): Buffer {
    const ciphertext = this.cipher.update(plaintext);
    this.mac.update(ciphertext);
    return ciphertext;
  }

  /** Undefined, or a promise to await before the next chunk (the worker is behind). */
  ready(): Promise<void> | undefined {
    return this.mac.ready();
  }

  async final(): Promise<{ ciphertext: Buffer; tag: Buffer }> {
    const ciphertext = this.cipher.final();
    this.mac.update(ciphertext);
    const [tag] = await this.mac.tags();
    return { ciphertext, tag: tag! };
  }

  dispose(): void {
    this.mac.dispose();
  }
}

/**
 * Decrypts a stream while MACing it under one or more AAD candidates (an envelope without
 * `protected` may have been tagged over an empty AAD or over either common header encoding).
 * What `update` returns is unauthenticated until `final` has checked the tag.
 */
export class StreamOpener {
  private readonly decipher;
  private readonly mac: StreamMac;

  constructor(key: Uint8Array, iv: Uint8Array, aads: readonly Uint8Array[]) {
    this.decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    this.mac = startMac(key, aads, iv);
  }

  /** Consumes `ciphertext` at once (the caller may reuse it) and returns fresh plaintext. */
  update(ciphertext: Uint8Array): Buffer {
    this.mac.update(ciphertext);
    return this.decipher.update(ciphertext);
  }

  /** Undefined, or a promise to await before the next chunk (the worker is behind). */
  ready(): Promise<void> | undefined {
    return this.mac.ready();
  }

  /**
   * Checks the tag against every AAD candidate in constant time, and only then the padding;
   * returns the last plaintext bytes and which AAD authenticated. Every failure is the one
   * decryption error.
   */
  async final(tag: Uint8Array): Promise<{ plaintext: Buffer; aadIndex: number }> {
    const length = this.mac.length;
    let aadIndex = -1;
    for (const [i, expected] of (await this.mac.tags()).entries()) {
      if (tag.length === TAG_BYTES && timingSafeEqual(expected, tag) && aadIndex === -1) aadIndex = i;
    }
    if (aadIndex === -1 || length === 0 || length % 16 !== 0) throw decryptionFailed();
    try {
      return { plaintext: this.decipher.final(), aadIndex };
    } catch {
      throw decryptionFailed();
    }
  }

  dispose(): void {
    this.mac.dispose();
  }
}
