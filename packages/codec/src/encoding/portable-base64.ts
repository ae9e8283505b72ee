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

// Output is ASCII, so writing character codes into bytes and decoding them natively avoids building
// a string four characters at a time (which made encoding GC-bound on large files).
const ascii = new TextDecoder('utf-8');

function encodeWith(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  const codes = new Uint8Array(64);
  for (let i = 0; i < 64; i++) codes[i] = alphabet.charCodeAt(i);
  const full = bytes.length - (bytes.length % 3);
  const rest = bytes.length - full;
  const out = new Uint8Array((full / 3) * 4 + (rest === 0 ? 0 : pad ? 4 : rest + 1));
  let o = 0;
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = codes[n >>> 18]!;
    out[o++] = codes[(n >>> 12) & 63]!;
    out[o++] = codes[(n >>> 6) & 63]!;
    out[o++] = codes[n & 63]!;
  }
  if (rest > 0) {
    const n = (bytes[full]! << 16) | (rest === 2 ? bytes[full + 1]! << 8 : 0);
    out[o++] = codes[n >>> 18]!;
    out[o++] = codes[(n >>> 12) & 63]!;
    if (rest === 2) out[o++] = codes[(n >>> 6) & 63]!;
    if (pad) out.fill(61 /* = */, o);
  }
  return ascii.decode(out);
}

function badCharacter(text: string, from: number, table: Int16Array, what: string): never {
  let i = from;
  while (i < text.length && text.charCodeAt(i) < 128 && table[text.charCodeAt(i)]! >= 0) i++;
  throw invalid(`${what} contains a character outside the base64 alphabet at offset ${i}.`);
}

function decodeWith(text: string, table: Int16Array, what: string, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  // Characters past 127 index outside the table and read as undefined; `| 0` would hide that, so
  // each lookup is bounds-checked and any invalid character makes the OR of a quad negative.
  const at = (i: number): number => {
    const c = text.charCodeAt(i);
    return c < 128 ? table[c]! : -1;
  };
  let o = 0;
  let i = 0;
  const full = length - (length % 4);
  for (; i < full; i += 4) {
    const a = at(i);
    const b = at(i + 1);
    const c = at(i + 2);
    const d = at(i + 3);
    if ((a | b | c | d) < 0) badCharacter(text, i, table, what);
    out[o++] = (a << 2) | (b >>> 4);
    out[o++] = ((b & 15) << 4) | (c >>> 2);
    out[o++] = ((c & 3) << 6) | d;
  }
  const rest = length - full;
  if (rest === 1) throw invalid(`${what} has an impossible length for base64 (${length} characters).`);
  if (rest >= 2) {
    const a = at(i);
    const b = at(i + 1);
    const c = rest === 3 ? at(i + 2) : 0;
    if ((a | b | c) < 0) badCharacter(text, i, table, what);
    if (rest === 2 ? b & 15 : c & 3) {
      throw invalid(`${what} is not canonical base64: its last character has non-zero trailing bits.`);
    }
    out[o++] = (a << 2) | (b >>> 4);
    if (rest === 3) out[o++] = ((b & 15) << 4) | (c >>> 2);
  }
  return out.subarray(0, o);
}

/*
 * The runtime's own base64 (the TC39 `Uint8Array` base64 methods: Chromium, Deno, Bun; not yet
 * Node 24) runs many times faster than the loops above. Where it exists it does the work and the
 * checks below decide strictness: it skips whitespace and accepts padding where these rules do
 * not, which shows as fewer bytes than the text's length implies, and it does not look at trailing
 * bits. Whatever it refuses or reads differently goes to the loops, which say what is wrong.
 */
type Alphabet = 'base64' | 'base64url';
interface NativeEncode {
  toBase64(options?: { alphabet?: Alphabet; omitPadding?: boolean }): string;
}
interface NativeDecode {
  fromBase64(
    text: string,
    options: { alphabet: Alphabet; lastChunkHandling: 'loose' },
  ): Uint8Array<ArrayBuffer>;
}
const nativeEncode = typeof (Uint8Array.prototype as Partial<NativeEncode>).toBase64 === 'function';
const nativeDecoder = (Uint8Array as unknown as Partial<NativeDecode>).fromBase64;

/** The native decoding of `text`'s first `length` characters (the rest is padding), if it is exact. */
function decodeNatively(
  text: string,
  alphabet: Alphabet,
  table: Int16Array,
  length: number,
): Uint8Array<ArrayBuffer> | undefined {
  if (nativeDecoder === undefined || length % 4 === 1) return undefined;
  let out: Uint8Array<ArrayBuffer>;
  try {
    out = nativeDecoder.call(Uint8Array, text, { alphabet, lastChunkHandling: 'loose' });
  } catch {
    return undefined;
  }
  if (out.length !== Math.floor((length * 3) / 4)) return undefined;
  const rest = length % 4;
  if (rest === 0) return out;
  const last = table[text.charCodeAt(length - 1)] ?? -1;
  return last >= 0 && (last & (rest === 2 ? 15 : 3)) === 0 ? out : undefined;
}

export function encodeBase64Url(bytes: Uint8Array): string {
  if (nativeEncode)
    return (bytes as unknown as NativeEncode).toBase64({ alphabet: 'base64url', omitPadding: true });
  return encodeWith(bytes, URL_ALPHABET, false);
}

export function encodeBase64(bytes: Uint8Array): string {
  if (nativeEncode) return (bytes as unknown as NativeEncode).toBase64();
  return encodeWith(bytes, STD_ALPHABET, true);
}

export function decodeBase64Url(text: string, what: string): Uint8Array<ArrayBuffer> {
  return (
    decodeNatively(text, 'base64url', URL_TABLE, text.length) ??
    decodeWith(text, URL_TABLE, what, text.length)
  );
}

export function decodeBase64(text: string, what: string): Uint8Array<ArrayBuffer> {
  if (text.length % 4 !== 0)
    throw invalid(`${what} is not padded base64 (length ${text.length} is not a multiple of 4).`);
  let body = text.length;
  if (text.endsWith('==')) body -= 2;
  else if (text.endsWith('=')) body -= 1;
  return decodeNatively(text, 'base64', STD_TABLE, body) ?? decodeWith(text, STD_TABLE, what, body);
}
