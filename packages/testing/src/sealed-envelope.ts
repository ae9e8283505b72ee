import { type Envelope, encrypt, encryptFile, encryptJson, type KeyInput } from '@jwe-transport/codec';

export interface SealOptions {
  /** The 16-character shared key (or its 32 raw bytes). */
  key: KeyInput;
  /** The envelope's top-level `kid`; omit it for an envelope without one. */
  kid?: string;
}

/** What `sealedEnvelope` seals: a JSON value, JSON text as it is, or a file's bytes. */
export type SealablePlaintext = unknown;

/**
 * A flattened JWE envelope (`{kid, protected, iv, ciphertext, tag}`) for fixtures, sealed the way
 * our clients and servers seal: bytes (`Uint8Array`, `ArrayBuffer`, `Blob`) as the wire's file
 * upload `{"file": "<base64>"}`; a string as the JSON text it is (so a fixture can hold JSON
 * written by hand); anything else as `JSON.stringify` writes it. A fresh IV every call.
 */
export async function sealedEnvelope(plaintext: SealablePlaintext, options: SealOptions): Promise<Envelope> {
  if (options === null || typeof options !== 'object' || options.key === undefined) {
    throw new TypeError('sealedEnvelope: pass { key, kid? } as the second argument.');
  }
  const codecOptions = options.kid === undefined ? {} : { kid: options.kid };
  if (plaintext instanceof Uint8Array) return encryptFile(plaintext, options.key, codecOptions);
  if (plaintext instanceof ArrayBuffer) {
    return encryptFile(new Uint8Array(plaintext), options.key, codecOptions);
  }
  if (typeof Blob !== 'undefined' && plaintext instanceof Blob) {
    return encryptFile(new Uint8Array(await plaintext.arrayBuffer()), options.key, codecOptions);
  }
  if (typeof plaintext === 'string') return encrypt(plaintext, options.key, codecOptions);
  return encryptJson(plaintext, options.key, codecOptions);
}
