import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../src/envelope.js';
import { isJweError } from '../src/errors.js';
import { backends } from './support/backends.js';
import { fromB64u, toHex } from './support/bytes.js';
import { expectJweError } from './support/errors.js';

const KEY = 'k3y-f0r-t3st1ng!';
const MEMBERS = ['protected', 'iv', 'ciphertext', 'tag'] as const;
type Member = (typeof MEMBERS)[number];

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/*
 * Each mutation keeps the text decodable by Node's lenient Buffer; `sameBytes` marks those that
 * Buffer even decodes to exactly the original bytes, so a lenient decoder would let the envelope
 * through unchanged in meaning but not in spelling.
 */
interface Mutation {
  name: string;
  apply(text: string): string | undefined;
  sameBytes: boolean;
}

const MUTATIONS: Mutation[] = [
  {
    name: 'padding',
    apply: (t) => (t.length % 4 === 0 ? undefined : t + '='.repeat(4 - (t.length % 4))),
    sameBytes: true,
  },
  { name: 'a space inside', apply: (t) => `${t.slice(0, 5)} ${t.slice(5)}`, sameBytes: true },
  { name: 'a trailing newline', apply: (t) => `${t}\n`, sameBytes: true },
  { name: 'a leading tab', apply: (t) => `\t${t}`, sameBytes: true },
  {
    name: '"+" for "-"',
    apply: (t) => (t.includes('-') ? t.replaceAll('-', '+') : undefined),
    sameBytes: true,
  },
  {
    name: '"/" for "_"',
    apply: (t) => (t.includes('_') ? t.replaceAll('_', '/') : undefined),
    sameBytes: true,
  },
  {
    name: 'length % 4 == 1',
    apply: (t) => t + 'A'.repeat((5 - (t.length % 4)) % 4 || 4),
    sameBytes: false,
  },
  {
    name: 'non-zero trailing bits',
    apply: (t) => {
      const rest = t.length % 4;
      if (rest === 0) return undefined;
      const value = URL_ALPHABET.indexOf(t.at(-1)!);
      return t.slice(0, -1) + URL_ALPHABET[value | 1];
    },
    sameBytes: true,
  },
  {
    // Node's decoder keeps only the low byte of each UTF-16 unit: "\u0142" reads as "B" (0x42).
    name: 'a non-ASCII character whose low byte is an alphabet character',
    apply: (t) => `${t.slice(0, 2)}${String.fromCharCode(t.charCodeAt(2) + 0x100)}${t.slice(3)}`,
    sameBytes: true,
  },
  {
    // A Latin-1 character (0x80-0xFF) fits in one byte: Buffer skips it, so only the length tells.
    name: 'a Latin-1 character in place of one of the alphabet',
    apply: (t) => `${t.slice(0, 2)}${String.fromCharCode(t.charCodeAt(2) | 0x80)}${t.slice(3)}`,
    sameBytes: false,
  },
  {
    name: 'an extra Latin-1 character',
    apply: (t) => `${t.slice(0, 2)}\u00c1${t.slice(2)}`,
    sameBytes: false,
  },
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(backends)('strict base64url, $name back end', ({ codec, backend, primitives }) => {
  let envelope: Envelope;

  beforeAll(async () => {
    // Find a fixed IV whose envelope has both "-" and "_" in iv, ciphertext and tag, so that the
    // alphabet mutations apply to every member (deterministic: the same IV is found every run).
    for (let seed = 0; seed < 5000; seed++) {
      const iv = new Uint8Array(16).fill(0xfb);
      new DataView(iv.buffer).setUint32(12, seed);
      const candidate = await codec.encrypt('thirty-two bytes of plaintext!', KEY, { unsafeFixedIv: iv });
      const parts = [candidate.iv, candidate.ciphertext, candidate.tag];
      if (parts.every((p) => p.includes('-') && p.includes('_'))) {
        envelope = candidate;
        return;
      }
    }
    throw new Error('no suitable IV found');
  });

  it('the chosen envelope is valid as it is', async () => {
    expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY))).toBe(
      'thirty-two bytes of plaintext!',
    );
  });

  const cases = MEMBERS.flatMap((member) =>
    MUTATIONS.map((mutation) => [member, mutation.name, mutation] as const),
  );

  it.each(cases)(
    '%s with %s is ERR_JWE_INVALID before any crypto',
    async (member: Member, _name, mutation) => {
      const original = envelope[member]!;
      const mutated = mutation.apply(original);
      if (mutated === undefined) {
        // The mutation does not apply to this member's text (e.g. no "-" in the protected header);
        // the alphabet cases are still covered through the other members.
        expect(['"+" for "-"', '"/" for "_"', 'padding']).toContain(mutation.name);
        return;
      }
      expect(mutated).not.toBe(original);
      // Node's Buffer accepts every one of these spellings without complaint.
      const lenient = Buffer.from(mutated, 'base64url');
      if (mutation.sameBytes) expect(toHex(lenient)).toBe(toHex(fromB64u(original)));

      const hmac = vi.spyOn(primitives, 'hmacSha256');
      const decrypt = vi.spyOn(primitives, 'aesCbcDecrypt');
      await expectJweError(() => codec.decrypt({ ...envelope, [member]: mutated }, KEY), 'ERR_JWE_INVALID');
      expect(hmac).not.toHaveBeenCalled();
      expect(decrypt).not.toHaveBeenCalled();
    },
  );

  it('the alphabet mutations changed iv, ciphertext and tag (the cases above are not vacuous)', () => {
    for (const member of ['iv', 'ciphertext', 'tag'] as const) {
      for (const mutation of MUTATIONS) expect(mutation.apply(envelope[member])).toBeDefined();
    }
  });

  it('an IV that decodes to other than 16 bytes is ERR_JWE_INVALID', async () => {
    for (const iv of ['', 'AAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAAAAAA']) {
      await expectJweError(() => codec.decrypt({ ...envelope, iv }, KEY), 'ERR_JWE_INVALID');
    }
  });

  describe('the decoders themselves', () => {
    const alphabet = [...URL_ALPHABET, '+', '/', '=', ' ', '\n', '\u0142', '\u012d', 'é', '\u0080', '\u00ff'];
    const suspicious = fc
      .array(fc.constantFrom(...alphabet), { maxLength: 12 })
      .map((chars) => chars.join(''));

    it('base64url: accepted exactly when the text is the canonical encoding of what it decodes to', () => {
      fc.assert(
        fc.property(suspicious, (text) => {
          let decoded: Uint8Array;
          try {
            decoded = backend.decodeBase64Url(text, 'text');
          } catch (error) {
            expect(isJweError(error) && error.code).toBe('ERR_JWE_INVALID');
            return;
          }
          expect(backend.encodeBase64Url(decoded)).toBe(text);
        }),
        { numRuns: 3000 },
      );
    });

    it('standard base64 (file payloads): accepted exactly when canonical', () => {
      fc.assert(
        fc.property(suspicious, (text) => {
          let decoded: Uint8Array;
          try {
            decoded = backend.decodeBase64(text, 'text');
          } catch (error) {
            expect(isJweError(error) && error.code).toBe('ERR_JWE_INVALID');
            return;
          }
          expect(backend.encodeBase64(decoded)).toBe(text);
        }),
        { numRuns: 3000 },
      );
    });

    it('round trip of arbitrary bytes in both alphabets', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
          expect(toHex(backend.decodeBase64Url(backend.encodeBase64Url(bytes), 'x'))).toBe(toHex(bytes));
          expect(toHex(backend.decodeBase64(backend.encodeBase64(bytes), 'x'))).toBe(toHex(bytes));
          expect(backend.encodeBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
          expect(backend.encodeBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
        }),
        { numRuns: 300 },
      );
    });

    it('Node Buffer is lenient where our decoder is not (the reason the checks exist)', () => {
      const lenientSpellings = ['AQID', 'AQID=', 'AQ ID', 'AQID\n', 'AQ+D', 'AQJ', 'AQIDB', 'AQ\u0149D'];
      for (const spelling of lenientSpellings) expect(() => Buffer.from(spelling, 'base64url')).not.toThrow();
      const rejected = lenientSpellings.filter((spelling) => {
        try {
          backend.decodeBase64Url(spelling, 'x');
          return false;
        } catch (error) {
          return isJweError(error);
        }
      });
      expect(rejected).toEqual(lenientSpellings.slice(1));
    });
  });
});
