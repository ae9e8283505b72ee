import { invalid } from '../errors.js';

/*
 * The body of one JSON string, read incrementally: the characters between the quotes, with
 * escapes resolved. Base64 content never needs escapes, but JSON allows them (`\u0041`, `\/`),
 * and the one-shot path reads them through JSON.parse, so we accept them too. An escape that
 * stands for a non-ASCII character becomes 0xFF, which no base64 alphabet contains, so the
 * decoder downstream rejects it as the one-shot one would.
 */

/** JSON's four whitespace characters (RFC 8259): nothing else may stand between tokens. */
export function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const SIMPLE_ESCAPES: Record<number, number> = {
  34: 0x22, // \"
  92: 0x5c, // \\
  47: 0x2f, // \/
  98: 0x08, // \b
  102: 0x0c, // \f
  110: 0x0a, // \n
  114: 0x0d, // \r
  116: 0x09, // \t
};

const NOT_IN_ALPHABET = 0xff;

export class JsonStringStream {
  /** Bytes of an escape sequence cut by a chunk boundary (at most `\uXXX`). */
  private pending: number[] | null = null;

  constructor(private readonly what: string) {}

  /**
   * Consumes `bytes[start..]` up to and including the closing quote. Calls `emit` with spans of
   * content and returns the index after the closing quote, or -1 when the chunk ended first.
   */
  read(bytes: Uint8Array, start: number, emit: (content: Uint8Array) => void): number {
    let at = start;
    while (at < bytes.length) {
      if (this.pending) {
        at = this.continueEscape(bytes, at, emit);
        continue;
      }
      const quote = bytes.indexOf(QUOTE, at);
      const limit = quote === -1 ? bytes.length : quote;
      const backslash = bytes.subarray(at, limit).indexOf(BACKSLASH);
      if (backslash === -1) {
        if (limit > at) emit(bytes.subarray(at, limit));
        if (quote !== -1) return quote + 1;
        return -1;
      }
      if (backslash > 0) emit(bytes.subarray(at, at + backslash));
      this.pending = [];
      at += backslash + 1;
    }
    return -1;
  }

  private continueEscape(bytes: Uint8Array, at: number, emit: (content: Uint8Array) => void): number {
    const sequence = this.pending!;
    while (at < bytes.length) {
      sequence.push(bytes[at++]!);
      const kind = sequence[0]!;
      if (kind !== 0x75 /* u */) {
        const value = SIMPLE_ESCAPES[kind];
        if (value === undefined) throw invalid(`${this.what} contains an invalid JSON escape.`);
        this.finish(value, emit);
        return at;
      }
      if (sequence.length === 5) {
        const hex = String.fromCharCode(...sequence.slice(1));
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw invalid(`${this.what} contains an invalid JSON escape.`);
        const code = Number.parseInt(hex, 16);
        this.finish(code < 0x80 ? code : NOT_IN_ALPHABET, emit);
        return at;
      }
    }
    return at;
  }

  private finish(value: number, emit: (content: Uint8Array) => void): void {
    this.pending = null;
    emit(Uint8Array.of(value));
  }
}
