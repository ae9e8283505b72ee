import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeBase64Url } from '../src/encoding/node-base64.js';
import { isJweError } from '../src/errors.js';
import {
  type Base64Alphabet,
  Base64StreamDecoder,
  Base64StreamEncoder,
} from '../src/stream/base64-stream.js';
import { JsonStringStream } from '../src/stream/json-string-stream.js';

/** Cuts `bytes` into consecutive pieces whose sizes cycle through `sizes` (each at least 1). */
function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 });

/** Each output is read before the next push, so the encoder's `reuse` mode can be checked too. */
function encodeInPieces(alphabet: Base64Alphabet, pieces: Uint8Array[], reuse = false): string {
  const encoder = new Base64StreamEncoder(alphabet, reuse);
  const out = pieces.map((piece) => Buffer.from(encoder.push(piece)).toString('latin1'));
  return out.join('') + Buffer.from(encoder.end()).toString('latin1');
}

type Outcome = { ok: true; bytes: string } | { ok: false; code: string };

function outcome(decode: () => Uint8Array | Uint8Array[]): Outcome {
  try {
    const result = decode();
    const bytes = Array.isArray(result) ? Buffer.concat(result) : Buffer.from(result);
    return { ok: true, bytes: bytes.toString('hex') };
  } catch (error) {
    if (!isJweError(error)) throw error;
    return { ok: false, code: error.code };
  }
}

/** With `reuse`, each output is copied before the next push, as a consumer of that mode must. */
function decodeInPieces(alphabet: Base64Alphabet, pieces: Uint8Array[], reuse = false): Uint8Array[] {
  const decoder = new Base64StreamDecoder(alphabet, 'The test text', reuse);
  const out: Uint8Array[] = pieces.map((piece) => Buffer.from(decoder.push(piece)));
  out.push(decoder.end());
  return out;
}

const oneShot = (alphabet: Base64Alphabet, text: string) =>
  alphabet === 'base64url' ? decodeBase64Url(text, 'The test text') : decodeBase64(text, 'The test text');

describe.each(['base64', 'base64url'] as const)('incremental %s', (alphabet) => {
  it('encodes any bytes, cut anywhere, exactly as Buffer does in one go', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), chunkSizes, fc.boolean(), (bytes, sizes, reuse) => {
        expect(encodeInPieces(alphabet, cut(bytes, sizes), reuse)).toBe(
          Buffer.from(bytes).toString(alphabet),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('decodes valid text, cut anywhere, to the same bytes as the one-shot decoder', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), chunkSizes, fc.boolean(), (bytes, sizes, reuse) => {
        const text = Buffer.from(Buffer.from(bytes).toString(alphabet), 'latin1');
        const decoded = Buffer.concat(decodeInPieces(alphabet, cut(text, sizes), reuse));
        expect(decoded.equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts and rejects exactly what the one-shot decoder does, wherever the chunks are cut', () => {
    // Mostly valid characters plus every kind of trouble: the other alphabet, padding, whitespace,
    // a non-ASCII byte; lengths of every residue modulo 4.
    const character = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...'ABCDQRSTgwAAAAQgw01'.split('')) },
      { weight: 1, arbitrary: fc.constantFrom('+', '/', '-', '_', '=', ' ', '\n', '\u00e9') },
    );
    fc.assert(
      fc.property(fc.array(character, { maxLength: 24 }), chunkSizes, fc.boolean(), (chars, sizes, reuse) => {
        const text = chars.join('');
        const expected = outcome(() => oneShot(alphabet, text));
        const streamed = outcome(() =>
          decodeInPieces(alphabet, cut(Buffer.from(text, 'latin1'), sizes), reuse),
        );
        expect(streamed).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects padding, whitespace or a foreign character far from the end, across a chunk boundary', () => {
    const valid = Buffer.from(Buffer.alloc(3000, 7).toString(alphabet), 'latin1');
    for (const bad of ['=', ' ', '\n', alphabet === 'base64' ? '-' : '+']) {
      const text = Buffer.from(valid);
      text[1001] = bad.charCodeAt(0);
      const result = outcome(() => decodeInPieces(alphabet, cut(text, [1000, 7])));
      expect(result).toEqual({ ok: false, code: 'ERR_JWE_INVALID' });
    }
  });
});

describe('JSON string bodies', () => {
  it('resolves escapes cut by chunk boundaries and stops after the closing quote', () => {
    const text = Buffer.from('AB\\u0043D\\/\\"x\\\\y"rest', 'latin1');
    for (let split = 0; split <= text.length; split++) {
      const reader = new JsonStringStream('The test string');
      const content: number[] = [];
      const emit = (span: Uint8Array) => content.push(...span);
      let end = reader.read(text.subarray(0, split), 0, emit);
      let offset = 0;
      if (end === -1) {
        offset = split;
        end = reader.read(text.subarray(split), 0, emit);
      }
      expect(Buffer.from(content).toString('latin1')).toBe('ABCD/"x\\y');
      expect(Buffer.from(text.subarray(offset + end)).toString('latin1')).toBe('rest');
    }
  });

  it('rejects an escape JSON does not define', () => {
    const reader = new JsonStringStream('The test string');
    expect(() => reader.read(Buffer.from('A\\x"'), 0, () => {})).toThrowError(/invalid JSON escape/);
    expect(() => new JsonStringStream('s').read(Buffer.from('\\u12G4"'), 0, () => {})).toThrowError(
      /invalid JSON escape/,
    );
  });
});

describe('incremental encoder with a reused output buffer', () => {
  it('encodes chunks larger than its first buffer, and reuses the buffer for the next push', () => {
    const encoder = new Base64StreamEncoder('base64', true);
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) & 255);
    const texts: string[] = [];
    const memory: ArrayBufferLike[] = [];
    // The 200,001-byte piece outgrows the first buffer; the two after it fit in the grown one.
    for (const piece of cut(bytes, [65_536, 200_001, 30_000, 4_463])) {
      const out = encoder.push(piece);
      texts.push(out.toString('latin1'));
      memory.push(out.buffer);
    }
    texts.push(encoder.end().toString('latin1'));
    expect(texts.join('') === Buffer.from(bytes).toString('base64')).toBe(true);
    expect(memory[2] === memory[3]).toBe(true);
    expect(memory[1] === memory[2]).toBe(true);
    expect(memory[0] === memory[1]).toBe(false);
  });
});
