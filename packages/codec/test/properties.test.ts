import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../src/envelope.js';
import { isJweError } from '../src/errors.js';
import { backends } from './support/backends.js';
import { b64u, flipBit, fromB64u, toHex, utf8 } from './support/bytes.js';
import { failureOf } from './support/errors.js';

const KEY = 'pr0perty-k3y-016';
const RUNS = { numRuns: 120 };
const REJECTIONS = ['ERR_JWE_INVALID', 'ERR_JWE_UNSUPPORTED', 'ERR_JWE_DECRYPTION_FAILED'];
const MEMBERS = ['protected', 'iv', 'ciphertext', 'tag'] as const;

const bytes = fc.uint8Array({ maxLength: 2048 });
const fixedIv = fc.uint8Array({ minLength: 16, maxLength: 16 });

async function rejectionCode(action: () => unknown): Promise<string> {
  const error = await failureOf(action);
  if (!isJweError(error)) throw new Error(`expected a JweError, got ${String(error)}`, { cause: error });
  return error.code;
}

describe.each(backends)('properties, $name back end', ({ codec }) => {
  it('round trip: arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (plaintext) => {
        const envelope = await codec.encrypt(plaintext, KEY);
        expect(toHex(await codec.decrypt(envelope, KEY))).toBe(toHex(plaintext));
      }),
      RUNS,
    );
  });

  it('round trip: arbitrary strings of any code points (as UTF-8)', async () => {
    const strings = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
    );
    await fc.assert(
      fc.asyncProperty(strings, async (value) => {
        const envelope = await codec.encrypt(value, KEY);
        expect(toHex(await codec.decrypt(envelope, KEY))).toBe(toHex(utf8(value)));
      }),
      RUNS,
    );
  });

  it('round trip: JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const envelope = await codec.encryptJson(value, KEY);
        expect(await codec.decryptJson(envelope, KEY)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      RUNS,
    );
  });

  it('round trip: files', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (file) => {
        const envelope = await codec.encryptFile(file, KEY);
        expect(toHex(await codec.decryptFile(envelope, KEY))).toBe(toHex(file));
      }),
      RUNS,
    );
  });

  it('round trip: compact serialization', async () => {
    await fc.assert(
      fc.asyncProperty(
        bytes,
        fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
        async (plaintext, kid) => {
          const envelope = await codec.encrypt(plaintext, KEY, kid === undefined ? {} : { kid });
          const compact = codec.toCompact(envelope);
          expect(compact.split('.')).toHaveLength(5);
          const { kid: _dropped, ...rest } = envelope;
          expect(codec.fromCompact(compact)).toEqual(rest);
          expect(toHex(await codec.decrypt(compact, KEY))).toBe(toHex(plaintext));
        },
      ),
      RUNS,
    );
  });

  it('any single-bit change in the decoded protected, iv, ciphertext or tag is rejected', async () => {
    const cases = fc
      .tuple(bytes, fc.constantFrom(...MEMBERS), fc.nat())
      .map(([plaintext, member, position]) => ({ plaintext, member, position }));
    await fc.assert(
      fc.asyncProperty(cases, async ({ plaintext, member, position }) => {
        const envelope = await codec.encrypt(plaintext, KEY);
        const decoded = fromB64u(envelope[member]!);
        const changed: Envelope = {
          ...envelope,
          [member]: b64u(flipBit(decoded, position % (decoded.length * 8))),
        };
        const code = await rejectionCode(() => codec.decrypt(changed, KEY));
        // iv, ciphertext and tag are authenticated bytes; only the header can also fail to parse.
        if (member === 'protected') expect(REJECTIONS).toContain(code);
        else expect(code).toBe('ERR_JWE_DECRYPTION_FAILED');
      }),
      { numRuns: 300 },
    );
  });

  it('any single-bit change in the base64url text of a member is rejected', async () => {
    const cases = fc
      .tuple(bytes, fc.constantFrom(...MEMBERS), fc.nat(), fc.integer({ min: 0, max: 6 }))
      .map(([plaintext, member, index, bit]) => ({ plaintext, member, index, bit }));
    await fc.assert(
      fc.asyncProperty(cases, async ({ plaintext, member, index, bit }) => {
        const envelope = await codec.encrypt(plaintext, KEY);
        const text = envelope[member]!;
        const at = index % text.length;
        const flipped = String.fromCharCode(text.charCodeAt(at) ^ (1 << bit));
        const changed: Envelope = { ...envelope, [member]: text.slice(0, at) + flipped + text.slice(at + 1) };
        expect(REJECTIONS).toContain(await rejectionCode(() => codec.decrypt(changed, KEY)));
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary junk input is refused with a JweError, never a TypeError or RangeError', async () => {
    const member = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.base64String({ maxLength: 30 }),
      fc.constant(''),
    );
    const junkEnvelope = fc.record(
      { protected: member, iv: member, ciphertext: member, tag: member, kid: fc.string() },
      { requiredKeys: [] },
    );
    const junk = fc.oneof(fc.string({ maxLength: 80 }), fc.jsonValue({ maxDepth: 2 }), junkEnvelope);
    await fc.assert(
      fc.asyncProperty(junk, async (input) => {
        const error = await failureOf(() => codec.decrypt(input as never, KEY));
        expect(isJweError(error)).toBe(true);
        const text = await failureOf(() => codec.decrypt(JSON.stringify(input) ?? 'undefined', KEY));
        expect(isJweError(text)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('both back ends agree', () => {
  const [node, web] = backends as [(typeof backends)[0], (typeof backends)[1]];

  it('one encrypts, the other decrypts, in both directions', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (plaintext) => {
        const fromNode = await node.codec.encrypt(plaintext, KEY);
        const fromWeb = await web.codec.encrypt(plaintext, KEY);
        expect(toHex(await web.codec.decrypt(fromNode, KEY))).toBe(toHex(plaintext));
        expect(toHex(await node.codec.decrypt(fromWeb, KEY))).toBe(toHex(plaintext));
      }),
      RUNS,
    );
  });

  it('with the same fixed IV both produce the identical envelope (bytes, JSON and files)', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, fixedIv, fc.jsonValue({ maxDepth: 3 }), async (plaintext, iv, json) => {
        const options = { unsafeFixedIv: iv, kid: 'same' };
        expect(await web.codec.encrypt(plaintext, KEY, options)).toEqual(
          await node.codec.encrypt(plaintext, KEY, options),
        );
        expect(await web.codec.encryptFile(plaintext, KEY, options)).toEqual(
          await node.codec.encryptFile(plaintext, KEY, options),
        );
        expect(await web.codec.encryptJson(json, KEY, options)).toEqual(
          await node.codec.encryptJson(json, KEY, options),
        );
      }),
      RUNS,
    );
  });

  it('both give the same verdict on tampered envelopes', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, fc.constantFrom(...MEMBERS), fc.nat(), async (plaintext, member, position) => {
        const envelope = await node.codec.encrypt(plaintext, KEY);
        const decoded = fromB64u(envelope[member]!);
        const changed = { ...envelope, [member]: b64u(flipBit(decoded, position % (decoded.length * 8))) };
        const nodeCode = await rejectionCode(() => node.codec.decrypt(changed, KEY));
        const webCode = await rejectionCode(() => web.codec.decrypt(changed, KEY));
        expect(webCode).toBe(nodeCode);
      }),
      RUNS,
    );
  });
});
