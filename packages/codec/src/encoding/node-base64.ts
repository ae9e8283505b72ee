import { Buffer } from 'node:buffer';
import { invalid } from '../errors.js';

/*
 * Buffer's decoder is fast but lenient: it skips whitespace and unknown characters, accepts both
 * alphabets and ignores padding and trailing bits. We keep its speed and add back strictness with
 * checks that cost a few memchr-like scans: no UTF-16 unit may be above 0xFF (Buffer keeps only
 * the low byte of wider units, so "\u0142" would read as "B"), the decoded length must be exactly
 * what the text length implies (any skipped character shortens it, 0x80-0xFF included), the other
 * alphabet's characters must be absent, and the last character must carry no trailing bits.
 */

// V8 (Node, Deno) knows that a one-byte string cannot match this class and answers without
// reading the text, where counting its UTF-8 length would scan all of it. JavaScriptCore (Bun)
// reads every character to match the class, but counts a string's UTF-8 length natively many
// times faster; there an all-ASCII text (every base64 text) is answered by that count alone.
const WIDE_UNIT = /[\u0100-\uffff]/;
const regexScansText = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';
const hasWideUnit = regexScansText
  ? (text: string) => Buffer.byteLength(text, 'utf8') !== text.length && WIDE_UNIT.test(text)
  : (text: string) => WIDE_UNIT.test(text);

const URL_VALUES = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].entries()) {
  URL_VALUES[c.charCodeAt(0)] = i;
}
const STD_VALUES = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  STD_VALUES[c.charCodeAt(0)] = i;
}

function trailingBitsClear(text: string, dataLength: number, values: Int8Array): boolean {
  const rest = dataLength % 4;
  if (rest === 0) return true;
  const c = text.charCodeAt(dataLength - 1);
  const v = c < 128 ? values[c]! : -1;
  return v >= 0 && (v & (rest === 2 ? 15 : 3)) === 0;
}

export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function encodeBase64Url(bytes: Uint8Array): string {
  return toBuffer(bytes).toString('base64url');
}

export function encodeBase64(bytes: Uint8Array): string {
  return toBuffer(bytes).toString('base64');
}

// The three base64url errors.
const base64UrlErrors = {
  length: (what: string, length: number) =>
    invalid(`${what} has an impossible length for base64url (${length} characters).`),
  alphabet: (what: string) =>
    invalid(`${what} is not base64url: use the URL-safe alphabet without padding or whitespace.`),
  trailingBits: (what: string) =>
    invalid(`${what} is not canonical base64url: its last character has non-zero trailing bits.`),
};

export function decodeBase64Url(text: string, what: string): Uint8Array<ArrayBuffer> {
  const length = text.length;
  if (length % 4 === 1) throw base64UrlErrors.length(what, length);
  const out = Buffer.from(text, 'base64url');
  const expected = Math.floor((length * 3) / 4);
  if (out.length !== expected || text.indexOf('+') !== -1 || text.indexOf('/') !== -1 || hasWideUnit(text)) {
    throw base64UrlErrors.alphabet(what);
  }
  if (!trailingBitsClear(text, length, URL_VALUES)) throw base64UrlErrors.trailingBits(what);
  return out;
}

/*
 * A long base64url text inside an envelope is decoded a piece at a time (32 Ki characters):
 * Buffer's decoder would otherwise copy the whole text to a scratch buffer first, and slicing it
 * out of the envelope's bytes would make it a string of its own. Pieces stay well below V8's
 * large-object size, so each dies young in the new space; larger ones are mapped one by one in
 * the large-object space, and opening a big upload then grows the heap on top of the body.
 */
const RANGE_PIECE_CHARS = 4 * 8 * 1024;

/**
 * The checks of `decodeBase64Url`, in its order, over `input[start, end)` (an envelope's text, or
 * its bytes read as Latin-1) a piece at a time; `write` decodes each piece and returns how many
 * bytes it gave.
 */
function decodeRangePieces(
  input: string | Buffer,
  start: number,
  end: number,
  what: string,
  write: (text: string) => number,
): void {
  const length = end - start;
  if (length % 4 === 1) throw base64UrlErrors.length(what, length);
  // The other alphabet's characters and UTF-16 units past 0xFF, looked for once over the whole
  // range (per piece they cost more than the decoding in some runtimes).
  const found = (char: string) => {
    const at =
      typeof input === 'string' ? input.indexOf(char, start) : input.indexOf(char.charCodeAt(0), start);
    return at !== -1 && at < end;
  };
  const wide = typeof input === 'string' && hasWideUnit(input) && hasWideUnit(input.slice(start, end));
  if (found('+') || found('/') || wide) throw base64UrlErrors.alphabet(what);
  let text = '';
  for (let at = start; at < end; at += RANGE_PIECE_CHARS) {
    const stop = Math.min(end, at + RANGE_PIECE_CHARS);
    text = typeof input === 'string' ? input.slice(at, stop) : input.toString('latin1', at, stop);
    // As in decodeBase64Url: any character Buffer's decoder skipped (a byte past 0x7F, padding,
    // whitespace) shows as a shorter output.
    if (write(text) !== Math.floor((text.length * 3) / 4)) throw base64UrlErrors.alphabet(what);
  }
  if (!trailingBitsClear(text, text.length, URL_VALUES)) throw base64UrlErrors.trailingBits(what);
}

/**
 * `decodeBase64Url` of `input[start, end)`, with the same checks in the same order, reading the
 * text where it lies. `within` decodes bytes into their own memory: output never overtakes the
 * piece being read, which is copied out first.
 */
export function decodeBase64UrlRange(
  input: string | Uint8Array,
  start: number,
  end: number,
  what: string,
  within = false,
): Uint8Array<ArrayBuffer> {
  const source = typeof input === 'string' ? input : toBuffer(input);
  const out =
    within && typeof source !== 'string'
      ? source
      : Buffer.allocUnsafeSlow(Math.floor(((end - start) * 3) / 4));
  const from = out === source ? start : 0;
  let written = from;
  decodeRangePieces(source, start, end, what, (text) => {
    const decoded = out.write(text, written, 'base64url');
    written += decoded;
    return decoded;
  });
  return out.subarray(from, written) as Buffer<ArrayBuffer>;
}

let scratch: Buffer | undefined;

/** `decodeBase64UrlRange`'s checks alone: each piece is decoded into a small scratch buffer. */
export function checkBase64UrlRange(input: Uint8Array, start: number, end: number, what: string): void {
  scratch ??= Buffer.allocUnsafeSlow((RANGE_PIECE_CHARS * 3) / 4);
  const into = scratch;
  decodeRangePieces(toBuffer(input), start, end, what, (text) => into.write(text, 0, 'base64url'));
}

export function decodeBase64(text: string, what: string): Uint8Array<ArrayBuffer> {
  const length = text.length;
  if (length % 4 !== 0)
    throw invalid(`${what} is not padded base64 (length ${length} is not a multiple of 4).`);
  const out = Buffer.from(text, 'base64');
  assertStrictBase64(text, out.length, what);
  return out;
}

const notStandardBase64 = (what: string) =>
  invalid(`${what} is not standard base64: use the +/ alphabet with = padding and no whitespace.`);

/** The checks that make Buffer's lenient decoding strict, given how many bytes it decoded from `text`. */
function assertStrictBase64(text: string, decoded: number, what: string): void {
  const length = text.length;
  let data = length;
  if (text.charCodeAt(length - 1) === 61) data -= text.charCodeAt(length - 2) === 61 ? 2 : 1;
  const firstPad = text.indexOf('=');
  const padMisplaced = firstPad !== -1 && firstPad < data;
  const wrongAlphabet = text.indexOf('-') !== -1 || text.indexOf('_') !== -1;
  if (decoded !== Math.floor((data * 3) / 4) || wrongAlphabet || padMisplaced || hasWideUnit(text)) {
    throw notStandardBase64(what);
  }
  if (!trailingBitsClear(text, data, STD_VALUES)) {
    throw invalid(`${what} is not canonical base64: its last character has non-zero trailing bits.`);
  }
}

/*
 * Large payloads are decoded a piece at a time so that no string as long as the whole payload is
 * ever made: each piece's 64 KiB string (a whole number of base64 quads) is small enough to die young.
 */
const PIECE_CHARS = 4 * 16 * 1024;

/**
 * Decodes the standard base64 text held in `bytes[start, end)` into the same memory, from offset 0
 * (each piece's text is copied out before its bytes are written, and output never overtakes input),
 * and returns the decoded bytes as a view of `bytes`. As strict as `decodeBase64`. On error the
 * content of `bytes` is undefined.
 */
export function decodeBase64Within(
  bytes: Uint8Array,
  start: number,
  end: number,
  what: string,
): Uint8Array<ArrayBuffer> {
  const length = end - start;
  if (length % 4 !== 0)
    throw invalid(`${what} is not padded base64 (length ${length} is not a multiple of 4).`);
  const buffer = toBuffer(bytes);
  // The other alphabet and misplaced padding are looked for once over the whole text, before any
  // byte is written (per piece these scans cost more than the decoding in some runtimes).
  const firstAt = (byte: number) => {
    const at = buffer.indexOf(byte, start);
    return at === -1 || at > end ? end : at;
  };
  const pad = firstAt(61 /* = */);
  const padOk = pad === end || pad === end - 1 || (pad === end - 2 && buffer[end - 1] === 61);
  if (!padOk || firstAt(45 /* - */) < end || firstAt(95 /* _ */) < end) throw notStandardBase64(what);
  let written = 0;
  let text = '';
  let data = 0;
  for (let at = start; at < end; at += PIECE_CHARS) {
    const stop = Math.min(end, at + PIECE_CHARS);
    text = buffer.toString('latin1', at, stop);
    data = text.length - (stop === end ? end - pad : 0);
    const decoded = buffer.write(text, written, 'base64');
    // Anything Buffer's decoder skipped (a byte past 0x7F, whitespace) shows as a shorter output.
    if (decoded !== Math.floor((data * 3) / 4)) throw notStandardBase64(what);
    written += decoded;
  }
  if (!trailingBitsClear(text, data, STD_VALUES)) {
    throw invalid(`${what} is not canonical base64: its last character has non-zero trailing bits.`);
  }
  return buffer.subarray(0, written) as Buffer<ArrayBuffer>;
}
