import { Buffer } from 'node:buffer';
import { decodeBase64, decodeBase64Url, toBuffer } from '../encoding/node-base64.js';
import { invalid } from '../errors.js';

/*
 * Incremental base64 (standard, padded) and base64url (no padding) over Buffer's SIMD codec.
 * Encoders carry the 0-2 bytes that do not fill a 3-byte group into the next chunk. Decoders
 * hold back the last 1-4 characters, so that every group they decode early is a full group
 * that cannot be the padded or short final one; `end()` hands that final group to the one-shot
 * strict decoders, which judge padding and trailing bits exactly as a whole-string decode would.
 */

export type Base64Alphabet = 'base64' | 'base64url';

/*
 * Text passes through JS strings (Buffer's codec has no bytes-to-bytes form on Node 20). Strings
 * over ~128 KiB land in V8's large-object space, which only a full GC frees, so megabyte chunks
 * would pile up there and double the process's peak memory; 64 KiB strings die young instead.
 */
const ENCODE_SLICE = 48 * 1024;
const DECODE_SLICE = 64 * 1024;

/** Writes the encoding of `bytes` (a multiple of 3 long unless it is the end) into `out` at `at`. */
function encodeInto(out: Buffer, at: number, bytes: Uint8Array, alphabet: Base64Alphabet): number {
  const input = toBuffer(bytes);
  let written = 0;
  for (let from = 0; from < input.length; from += ENCODE_SLICE) {
    const text = input.toString(alphabet, from, Math.min(input.length, from + ENCODE_SLICE));
    written += out.write(text, at + written, 'latin1');
  }
  return written;
}

/** Decodes `text` (whole groups) into `out` at `at` leniently; returns the bytes written. */
function decodeInto(out: Buffer, at: number, text: Uint8Array, alphabet: Base64Alphabet): number {
  const input = toBuffer(text);
  let written = 0;
  for (let from = 0; from < input.length; from += DECODE_SLICE) {
    const slice = input.toString('latin1', from, Math.min(input.length, from + DECODE_SLICE));
    written += out.write(slice, at + written, alphabet);
  }
  return written;
}

const EMPTY = Buffer.alloc(0);

/**
 * Where a coder's `push` writes its result: a fresh buffer each time, or (`reuse`) one buffer
 * that each `push` overwrites, for consumers that are done with a result before the next push.
 */
class Output {
  private buffer: Buffer<ArrayBuffer> = EMPTY;

  constructor(
    private readonly reuse: boolean,
    private readonly initial: number,
  ) {}

  take(length: number): Buffer<ArrayBuffer> {
    if (!this.reuse) return Buffer.allocUnsafe(length);
    if (this.buffer.length < length) this.buffer = Buffer.allocUnsafeSlow(Math.max(length, this.initial));
    return this.buffer.subarray(0, length);
  }
}
const PLUS = 0x2b;
const SLASH = 0x2f;
const MINUS = 0x2d;
const UNDERSCORE = 0x5f;
const EQUALS = 0x3d;

export class Base64StreamEncoder {
  private carry: Buffer = EMPTY;
  private readonly output: Output;

  /**
   * `reuse`: `push` returns its text in one buffer that the next `push` overwrites, for a
   * consumer that is done with each chunk before it asks for the next (a cipher's `update`).
   */
  constructor(
    private readonly alphabet: Base64Alphabet,
    reuse = false,
  ) {
    this.output = new Output(reuse, 96 * 1024);
  }

  /** Encodes what fills whole 3-byte groups; returns ASCII bytes. */
  push(chunk: Uint8Array): Buffer<ArrayBuffer> {
    const input = toBuffer(chunk);
    const available = this.carry.length + input.length;
    if (available < 3) {
      this.carry = Buffer.concat([this.carry, input]);
      return EMPTY;
    }
    const fromInput = this.carry.length === 0 ? 0 : 3 - this.carry.length;
    const head = fromInput === 0 ? EMPTY : Buffer.concat([this.carry, input.subarray(0, fromInput)]);
    const bodyEnd = fromInput + Math.floor((input.length - fromInput) / 3) * 3;
    const body = input.subarray(fromInput, bodyEnd);
    // Copied: the caller may reuse its chunk's memory once we return.
    this.carry = Buffer.from(input.subarray(bodyEnd));
    const out = this.output.take(((head.length + body.length) / 3) * 4);
    const at = encodeInto(out, 0, head, this.alphabet);
    encodeInto(out, at, body, this.alphabet);
    return out;
  }

  /** The final 0-2 bytes, with padding for standard base64. */
  end(): Buffer<ArrayBuffer> {
    const out = this.carry.length === 0 ? EMPTY : Buffer.from(this.carry.toString(this.alphabet), 'latin1');
    this.carry = EMPTY;
    return out;
  }
}

export class Base64StreamDecoder {
  private held: Buffer = EMPTY;
  private readonly foreign: readonly number[];
  private readonly output: Output;

  /** `reuse`: as for the encoder, each `push` result is valid only until the next `push`. */
  constructor(
    private readonly alphabet: Base64Alphabet,
    private readonly what: string,
    reuse = false,
  ) {
    this.output = new Output(reuse, 64 * 1024);
    // Buffer decodes both alphabets and skips '='; each alphabet refuses the other's characters.
    this.foreign = alphabet === 'base64url' ? [PLUS, SLASH, EQUALS] : [MINUS, UNDERSCORE, EQUALS];
  }

  /** Decodes every full group that is certainly not the last; `text` is ASCII bytes. */
  push(text: Uint8Array): Buffer {
    const input = toBuffer(text);
    const total = this.held.length + input.length;
    if (total <= 4) {
      this.held = Buffer.concat([this.held, input]);
      return EMPTY;
    }
    // The group cut by the previous chunk boundary is completed and decoded apart from the body,
    // so the body is decoded from flat strings, never from a joined one (which V8 would copy).
    const fromInput = this.held.length === 0 ? 0 : 4 - this.held.length;
    const head = this.held.length === 0 ? EMPTY : Buffer.concat([this.held, input.subarray(0, fromInput)]);
    const keep = total % 4 || 4;
    const body = input.subarray(fromInput, input.length - keep);
    for (const code of this.foreign) {
      if (body.indexOf(code) !== -1 || head.indexOf(code) !== -1) throw this.notBase64();
    }
    this.held = Buffer.from(input.subarray(input.length - keep));
    const out = this.output.take(((head.length + body.length) / 4) * 3);
    const written = decodeInto(out, 0, head, this.alphabet);
    // Buffer skips characters outside the alphabet (whitespace included); a short result shows them.
    if (written + decodeInto(out, written, body, this.alphabet) !== out.length) throw this.notBase64();
    return out;
  }

  /** Decodes the held final group with the one-shot strict rules. */
  end(): Uint8Array {
    const last = this.held.toString('latin1');
    this.held = EMPTY;
    return this.alphabet === 'base64url' ? decodeBase64Url(last, this.what) : decodeBase64(last, this.what);
  }

  private notBase64(): Error {
    return this.alphabet === 'base64url'
      ? invalid(`${this.what} is not base64url: use the URL-safe alphabet without padding or whitespace.`)
      : invalid(`${this.what} is not standard base64: use the +/ alphabet with = padding and no whitespace.`);
  }
}
