import { Buffer } from 'node:buffer';

/** Hex with optional spaces or newlines (as printed in RFCs) to bytes. */
export function hex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Reference base64url through Node's Buffer (encoding is not where Buffer is lenient). */
export function b64u(bytes: Uint8Array | string): string {
  return (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes)).toString('base64url');
}

/** Decodes canonical base64url; only for texts this test suite produced itself. */
export function fromB64u(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64url'));
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function text(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** A copy of `bytes` with bit `bit` (0 = most significant bit of byte 0) inverted. */
export function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = bytes.slice();
  out[bit >> 3]! ^= 0x80 >> (bit & 7);
  return out;
}

/** Deterministic filler bytes (a simple LCG) for vectors that must not change between runs. */
export function patternBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}
