/*
 * Byte helpers on plain Uint8Arrays: the engine runs in browsers and workers, where there is no
 * Buffer. atob/btoa are available in every runtime the engine supports (Node 16+ included).
 */

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/** Lenient UTF-8 decoding (invalid sequences become U+FFFD), as Buffer#toString('utf8') does. */
export function utf8Text(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** One byte per character, the low 8 bits: JOSE's ASCII(...) for the AAD. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

const DECODE_SLICE = 1 << 20;

/**
 * Standard base64 (with or without padding) to bytes. Characters outside the alphabet are the
 * caller's business: pass only text that has been checked or cleaned.
 */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let written = 0;
  // atob on slices whose length is a multiple of 4 keeps the intermediate strings small.
  for (let at = 0; at < clean.length; at += DECODE_SLICE) {
    let slice = clean.slice(at, at + DECODE_SLICE);
    const rest = slice.length % 4;
    if (rest === 1) slice = slice.slice(0, -1);
    else if (rest !== 0) slice += '='.repeat(4 - rest);
    const binary = atob(slice);
    for (let i = 0; i < binary.length; i++) out[written++] = binary.charCodeAt(i);
  }
  return written === out.length ? out : out.subarray(0, written);
}

/** base64url (no padding) to bytes, for text already reduced to the URL alphabet. */
export function fromBase64Url(text: string): Uint8Array {
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

/** Bytes to standard base64 with padding, the form of `{"file": …}` payloads. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  const step = 0x8000 - (0x8000 % 3);
  for (let at = 0; at < bytes.length; at += step) {
    out += btoa(String.fromCharCode(...bytes.subarray(at, at + step)));
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A copy in a fresh ArrayBuffer, the type WebCrypto's declarations ask for. */
export function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}
