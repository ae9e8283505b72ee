import { describe, expect, it } from 'vitest';
import type { JweErrorCode } from '../src/errors.js';
import { PROTECTED_COMPACT } from '../src/header.js';
import { backends } from './support/backends.js';
import { patternBytes, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';

const KEY = 'k3y-f0r-t3st1ng!';
const IV = patternBytes(16, 5);

describe.each(backends)('envelope shape, $name back end', ({ codec }) => {
  const sample = () => codec.encrypt('shape test', KEY, { kid: 'kid-1', unsafeFixedIv: IV });

  it('encrypt emits the members in the documented order: kid, protected, iv, ciphertext, tag', async () => {
    const envelope = await sample();
    expect(Object.keys(envelope)).toEqual(['kid', 'protected', 'iv', 'ciphertext', 'tag']);
    expect(envelope.protected).toBe(PROTECTED_COMPACT);
    expect(Object.keys(await codec.encrypt('x', KEY))).toEqual(['protected', 'iv', 'ciphertext', 'tag']);
  });

  it('a fresh random IV every call, also across many calls (past any internal pool refill)', async () => {
    const ivs = new Set<string>();
    const count = 3000;
    for (let i = 0; i < count; i++) ivs.add((await codec.encrypt('same', KEY)).iv);
    expect(ivs.size).toBe(count);
  });

  it('an IV does not change after it was used (no view into a reused buffer)', async () => {
    const envelopes = await Promise.all(Array.from({ length: 600 }, () => codec.encrypt('iv reuse', KEY)));
    for (const envelope of envelopes) {
      expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY))).toBe('iv reuse');
    }
  });

  it('unsafeFixedIv must be 16 bytes', async () => {
    await expect(codec.encrypt('x', KEY, { unsafeFixedIv: new Uint8Array(12) })).rejects.toThrow(TypeError);
  });

  it('input as object, JSON text, JSON bytes, compact text, with surrounding whitespace', async () => {
    const envelope = await sample();
    const json = JSON.stringify(envelope);
    const compact = codec.toCompact(envelope);
    const inputs = [
      envelope,
      json,
      `\n  ${JSON.stringify(envelope, null, 2)}\n`,
      utf8(json),
      compact,
      ` ${compact}\r\n`,
    ];
    for (const input of inputs) {
      expect(new TextDecoder().decode(await codec.decrypt(input, KEY))).toBe('shape test');
    }
  });

  it('an empty encrypted_key (as jose C emits) is accepted; a non-empty one is unsupported', async () => {
    const envelope = await sample();
    expect(new TextDecoder().decode(await codec.decrypt({ ...envelope, encrypted_key: '' }, KEY))).toBe(
      'shape test',
    );
    await expectJweError(
      () => codec.decrypt({ ...envelope, encrypted_key: 'AAAA' }, KEY),
      'ERR_JWE_UNSUPPORTED',
    );
  });

  const SHAPES: Array<[string, (e: Record<string, unknown>) => unknown, JweErrorCode]> = [
    ['an array', (e) => [e], 'ERR_JWE_INVALID'],
    ['null', () => null, 'ERR_JWE_INVALID'],
    ['a number', () => 42, 'ERR_JWE_INVALID'],
    ['missing iv', ({ iv: _, ...rest }) => rest, 'ERR_JWE_INVALID'],
    ['missing ciphertext', ({ ciphertext: _, ...rest }) => rest, 'ERR_JWE_INVALID'],
    ['missing tag', ({ tag: _, ...rest }) => rest, 'ERR_JWE_INVALID'],
    ['an unknown member', (e) => ({ ...e, payload: 'x' }), 'ERR_JWE_INVALID'],
    ['a numeric iv', (e) => ({ ...e, iv: 1 }), 'ERR_JWE_INVALID'],
    ['a non-string protected', (e) => ({ ...e, protected: { alg: 'dir' } }), 'ERR_JWE_INVALID'],
    ['a non-string kid', (e) => ({ ...e, kid: 5 }), 'ERR_JWE_INVALID'],
    ['general serialization', (e) => ({ ...e, recipients: [{}] }), 'ERR_JWE_UNSUPPORTED'],
  ];

  it.each(SHAPES)('%s is refused by parseEnvelope and decrypt', async (_name, make, code) => {
    const value = make({ ...(await sample()) });
    await expectJweError(() => codec.parseEnvelope(value), code);
    await expectJweError(() => codec.decrypt(value as never, KEY), code);
    await expectJweError(() => codec.decrypt(JSON.stringify(value), KEY), code);
    await expectJweError(() => codec.readEnvelope(JSON.stringify(value)), code);
  });

  it('readEnvelope reads every input form to the same envelope, with no key', async () => {
    const envelope = await sample();
    const text = JSON.stringify(envelope);
    expect(codec.readEnvelope(text)).toEqual(envelope);
    expect(codec.readEnvelope(new TextEncoder().encode(` ${text}\n`))).toEqual(envelope);
    expect(codec.readEnvelope(envelope)).toEqual(envelope);
    const { kid: _kid, ...withoutKid } = envelope;
    expect(codec.readEnvelope(codec.toCompact(envelope))).toEqual(withoutKid);
  });

  it('readEnvelope refuses duplicate members and invalid UTF-8, as decryption does', async () => {
    const text = JSON.stringify(await sample());
    await expectJweError(() => codec.readEnvelope(`{"iv":"AAAA",${text.slice(1)}`), 'ERR_JWE_INVALID');
    await expectJweError(() => codec.readEnvelope(Uint8Array.from([0x7b, 0xff, 0x7d])), 'ERR_JWE_INVALID');
  });

  it('parseEnvelope returns a valid envelope unchanged', async () => {
    const envelope = await sample();
    expect(codec.parseEnvelope(JSON.parse(JSON.stringify(envelope)))).toEqual(envelope);
  });

  it.each([
    ['empty text', ''],
    ['only whitespace', ' \n\t '],
    ['invalid UTF-8 bytes', Uint8Array.from([0x7b, 0xff, 0x7d])],
    ['truncated JSON', '{"iv":"'],
  ])('%s is ERR_JWE_INVALID', async (_name, input) => {
    await expectJweError(() => codec.decrypt(input, KEY), 'ERR_JWE_INVALID');
  });

  describe('compact serialization', () => {
    it('toCompact is protected..iv.ciphertext.tag and fromCompact reverses it (kid is dropped)', async () => {
      const envelope = await sample();
      const compact = codec.toCompact(envelope);
      expect(compact).toBe(`${envelope.protected}..${envelope.iv}.${envelope.ciphertext}.${envelope.tag}`);
      const { kid: _kid, ...withoutKid } = envelope;
      expect(codec.fromCompact(compact)).toEqual(withoutKid);
    });

    it.each([
      ['four parts', (c: string) => c.slice(0, c.lastIndexOf('.'))],
      ['six parts', (c: string) => `${c}.AAAA`],
      ['a trailing dot', (c: string) => `${c}.`],
      ['a non-empty encrypted key', (c: string) => c.replace('..', '.AAAA.')],
      ['three parts', (c: string) => c.split('.').slice(0, 3).join('.')],
      ['no dots at all', (c: string) => c.replaceAll('.', '')],
    ])('%s is ERR_JWE_INVALID', async (_name, mutate) => {
      const compact = mutate(codec.toCompact(await sample()));
      await expectJweError(() => codec.fromCompact(compact), 'ERR_JWE_INVALID');
      await expectJweError(() => codec.decrypt(compact, KEY), 'ERR_JWE_INVALID');
    });

    it('a million dots fail with ERR_JWE_INVALID', async () => {
      const dots = '.'.repeat(1_000_000);
      await expectJweError(() => codec.fromCompact(dots), 'ERR_JWE_INVALID');
      await expectJweError(() => codec.decrypt(dots, KEY), 'ERR_JWE_INVALID');
      const valid = codec.toCompact(await sample());
      await expectJweError(() => codec.decrypt(`${valid}${dots}`, KEY), 'ERR_JWE_INVALID');
    });

    it('an error message about extra parts stays short, whatever the input size', async () => {
      const error = await expectJweError(() => codec.fromCompact('a.'.repeat(500_000)), 'ERR_JWE_INVALID');
      expect(error.message.length).toBeLessThan(200);
    });

    it('fromCompact refuses a non-string', async () => {
      await expectJweError(() => codec.fromCompact(42 as never), 'ERR_JWE_INVALID');
    });

    it('toCompact refuses envelopes that have no compact form', async () => {
      const { protected: _p, ...noProtected } = await sample();
      await expectJweError(() => codec.toCompact(noProtected), 'ERR_JWE_INVALID');
      const envelope = await sample();
      await expectJweError(() => codec.toCompact({ ...envelope, aad: 'AAAA' }), 'ERR_JWE_INVALID');
      await expectJweError(
        () => codec.toCompact({ ...envelope, unprotected: { typ: 'x' } }),
        'ERR_JWE_INVALID',
      );
    });
  });
});
