import { invalid } from '../errors.js';

/*
 * Table-driven base64 for runtimes without Buffer (browsers, workers, Deno, Bun's web entry).
 * Decoding is strict: only the alphabet, exact padding rules, and zero trailing bits, because
 * a lenient decoder lets two different strings authenticate as the same bytes.
 */

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeTable(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const URL_TABLE = decodeTable(URL_ALPHABET);
const STD_TABLE = decodeTable(STD_ALPHABET);

function encodeWith(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  const parts: string[] = [];
  let chunk = '';
  const full = bytes.length - (bytes.length % 3);
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + alphabet[n & 63]!;
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - full;
  if (rest === 1) {
    const n = bytes[full]! << 16;
    chunk += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[full]! << 16) | (bytes[full + 1]! << 8);
    chunk += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + (pad ? '=' : '');
  }
  parts.push(chunk);
  return parts.join('');
}

function decodeWith(text: string, table: Int16Array, what: string, length: number): Uint8Array {
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  let o = 0;
  let i = 0;
  const value = (index: number): number => {
    const c = text.charCodeAt(index);
    const v = c < 128 ? table[c]! : -1;
    if (v < 0) throw invalid(`${what} contains a character outside the base64 alphabet at offset ${index}.`);
    return v;
  };
  const full = length - (length % 4);
  for (; i < full; i += 4) {
    const n = (value(i) << 18) | (value(i + 1) << 12) | (value(i + 2) << 6) | value(i + 3);
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = length - full;
  if (rest === 1) throw invalid(`${what} has an impossible length for base64 (${length} characters).`);
  if (rest === 2) {
    const a = value(i);
    const b = value(i + 1);
    if (b & 15)
      throw invalid(`${what} is not canonical base64: its last character has non-zero trailing bits.`);
    out[o++] = (a << 2) | (b >>> 4);
  } else if (rest === 3) {
    const a = value(i);
    const b = value(i + 1);
    const c = value(i + 2);
    if (c & 3)
      throw invalid(`${what} is not canonical base64: its last character has non-zero trailing bits.`);
    out[o++] = (a << 2) | (b >>> 4);
    out[o++] = ((b & 15) << 4) | (c >>> 2);
  }
  return out.subarray(0, o);
}

export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeWith(bytes, URL_ALPHABET, false);
}

export function encodeBase64(bytes: Uint8Array): string {
  return encodeWith(bytes, STD_ALPHABET, true);
}

export function decodeBase64Url(text: string, what: string): Uint8Array {
  return decodeWith(text, URL_TABLE, what, text.length);
}

export function decodeBase64(text: string, what: string): Uint8Array {
  if (text.length % 4 !== 0)
    throw invalid(`${what} is not padded base64 (length ${text.length} is not a multiple of 4).`);
  let body = text.length;
  if (text.endsWith('==')) body -= 2;
  else if (text.endsWith('=')) body -= 1;
  return decodeWith(text, STD_TABLE, what, body);
}
