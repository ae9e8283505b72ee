import { Buffer } from 'node:buffer';
import { readdirSync, statSync } from 'node:fs';
import { compactDecrypt, flattenedDecrypt } from 'jose';
import { describe, expect, it } from 'vitest';
// The published WebCrypto build (pnpm build first), as browsers and --conditions=browser load it.
import * as webCodec from '../packages/codec/dist/index.js';
import * as nodeCodec from '../packages/codec/src/index.js';
import {
  type EnvelopeVector,
  loadMalformed,
  loadResponses,
  loadVectors,
  type MalformedCase,
  plaintextBytes,
} from './index.js';
import { jwcryptoDecrypt } from './peers/index.mjs';

const vectors = loadVectors();
const malformed = loadMalformed();
const responses = loadResponses();
const codecs = [
  { name: 'node', codec: nodeCodec },
  { name: 'webcrypto', codec: webCodec },
];
const PINNED = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A128CBC-HS256'] };
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// Map.groupBy arrived in Node 21; CI also runs Node 20.
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

describe('the vector files', () => {
  it('are present, named uniquely and small', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(15);
    expect(malformed.length).toBeGreaterThanOrEqual(40);
    expect(responses.length).toBeGreaterThanOrEqual(4);
    const names = [...vectors, ...malformed, ...responses].map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    const dir = new URL('.', import.meta.url);
    const total = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .reduce((sum, f) => sum + statSync(new URL(f, dir)).size, 0);
    expect(total).toBeLessThan(200 * 1024);
  });

  it('cover our codec, the reference builder and both peers, and every payload kind', () => {
    expect(new Set(vectors.map((v) => v.producer))).toEqual(
      new Set(['jwe-transport', 'reference', 'jwcrypto', 'jose-c']),
    );
    expect(new Set(vectors.map((v) => v.kind))).toEqual(new Set(['text', 'json', 'bytes', 'file']));
    expect(new Set(malformed.map((c) => c.code))).toEqual(
      new Set(['ERR_JWE_INVALID', 'ERR_JWE_UNSUPPORTED', 'ERR_JWE_DECRYPTION_FAILED', 'ERR_KEY_UNKNOWN']),
    );
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s is self-consistent', (_name, v: EnvelopeVector) => {
    expect(v.envelope.protected).toBe(v.protected);
    expect(v.envelope.iv).toBe(v.iv);
    expect(v.envelope.kid).toBe(v.kid);
    expect(v.compact).toBe(`${v.protected}..${v.iv}.${v.envelope.ciphertext}.${v.envelope.tag}`);
    if (v.plaintext.text !== undefined)
      expect(Buffer.from(v.plaintext.text).toString('base64')).toBe(v.plaintext.base64);
    if (v.kind === 'json') expect(JSON.parse(v.plaintext.text!)).toEqual(v.json);
    if (v.kind === 'file') expect(v.plaintext.text).toBe(`{"file":"${v.file!.base64}"}`);
  });
});

describe.each(codecs)('vectors with our codec, $name back end', ({ codec }) => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, v: EnvelopeVector) => {
    const expected = hex(plaintextBytes(v.plaintext));
    const detailed = await codec.decryptDetailed(v.envelope, v.key);
    expect(hex(detailed.plaintext)).toBe(expected);
    expect(detailed.kid).toBe(v.kid);
    expect(detailed.headerSource).toBe('protected');
    expect(hex(await codec.decrypt(v.compact, v.key))).toBe(expected);
    expect(hex(await codec.decrypt(JSON.stringify(v.envelope), v.key))).toBe(expected);
    if (v.kid !== undefined) {
      expect(
        hex(await codec.decrypt(v.envelope, codec.keyring({ [v.kid]: v.key, other: 'some-other-key-1' }))),
      ).toBe(expected);
    }
    if (v.kind === 'json') expect(await codec.decryptJson(v.envelope, v.key)).toEqual(v.json);
    if (v.kind === 'file') {
      expect(Buffer.from(await codec.decryptFile(v.envelope, v.key)).toString('base64')).toBe(v.file!.base64);
    }
    if (v.producer === 'jwe-transport') {
      // Regeneration is stable: the same key, IV and kid give the same envelope, byte for byte.
      const iv = new Uint8Array(Buffer.from(v.iv, 'base64url'));
      const options = v.kid === undefined ? { unsafeFixedIv: iv } : { unsafeFixedIv: iv, kid: v.kid };
      const again =
        v.kind === 'json'
          ? await codec.encryptJson(v.json, v.key, options)
          : v.kind === 'file'
            ? await codec.encryptFile(plaintextBytes(v.file!), v.key, options)
            : await codec.encrypt(plaintextBytes(v.plaintext), v.key, options);
      expect(again).toEqual(v.envelope);
    }
  });

  it.each(malformed.map((c) => [c.name, c] as const))('negative: %s', async (_name, c: MalformedCase) => {
    const key = c.keys ? codec.keyring(c.keys) : c.key;
    let error: unknown;
    try {
      await codec.decrypt(c.input as nodeCodec.EnvelopeInput, key, c.options);
    } catch (caught) {
      error = caught;
    }
    expect(nodeCodec.isJweError(error)).toBe(true);
    expect((error as nodeCodec.JweError).code).toBe(c.code);
  });

  it.each(responses.map((r) => [r.name, r] as const))('response: %s', async (_name, r) => {
    for (const policy of ['infer', 'rfc', 'reject'] as const) {
      const outcome = r.expected[policy];
      const attempt = codec.decryptDetailed(r.envelope, r.key, { missingProtected: policy });
      if ('code' in outcome) {
        await expect(attempt).rejects.toMatchObject({ code: outcome.code });
      } else {
        const result = await attempt;
        expect(result.headerSource).toBe(outcome.headerSource);
        expect(hex(result.plaintext)).toBe(hex(plaintextBytes(r.plaintext)));
        expect(result.kid).toBe(r.envelope.kid);
      }
    }
  });
});

describe('vectors with the peers', () => {
  it.each(vectors.map((v) => [v.name, v] as const))(
    'npm jose decrypts %s (flattened and compact)',
    async (_name, v) => {
      const key = nodeCodec.deriveKey(v.key);
      const expected = hex(plaintextBytes(v.plaintext));
      // npm jose refuses the empty encrypted_key that jose C writes (RFC 7516 says omit it); the
      // member carries nothing for dir, so the vector is checked without it.
      const { encrypted_key: emptyKey, ...envelope } = v.envelope;
      expect(emptyKey ?? '').toBe('');
      const flattened = await flattenedDecrypt(
        envelope as Parameters<typeof flattenedDecrypt>[0],
        key,
        PINNED,
      );
      expect(hex(flattened.plaintext)).toBe(expected);
      expect(hex((await compactDecrypt(v.compact, key, PINNED)).plaintext)).toBe(expected);
    },
  );

  const byKey = groupBy(vectors, (v) => v.key);
  it.each([...byKey.keys()])('jwcrypto decrypts every vector for key %j (one process)', async (key) => {
    const group = byKey.get(key)!;
    const results = await jwcryptoDecrypt(key, [
      ...group.map((v) => v.envelope),
      ...group.map((v) => v.compact),
    ]);
    results.forEach((result, i) => {
      const v = group[i % group.length]!;
      expect(result, v.name).toMatchObject({ ok: true });
      if (result.ok) expect(hex(result.plaintext)).toBe(hex(plaintextBytes(v.plaintext)));
    });
  });

  it('jwcrypto also refuses every case we refuse as ERR_JWE_DECRYPTION_FAILED', async () => {
    const failing = malformed.filter((c) => c.code === 'ERR_JWE_DECRYPTION_FAILED');
    for (const [key, group] of groupBy(failing, (c) => c.key)) {
      const results = await jwcryptoDecrypt(
        key,
        group.map((c) => c.input as object),
      );
      expect(results.map((r, i) => [group[i]!.name, r.ok])).toEqual(group.map((c) => [c.name, false]));
    }
  });

  it('responses are sound: with their header restored, jwcrypto and npm jose read them', async () => {
    for (const r of responses) {
      const source = 'headerSource' in r.expected.infer ? r.expected.infer.headerSource : undefined;
      if (source === undefined) continue;
      const { kid: _kid, ...envelope } = r.envelope;
      const restored =
        source === 'none'
          ? { ...envelope, header: { alg: 'dir', enc: 'A128CBC-HS256' } }
          : {
              protected:
                source === 'assumed-compact' ? nodeCodec.PROTECTED_COMPACT : nodeCodec.PROTECTED_SPACED,
              ...envelope,
            };
      const [fromPython] = await jwcryptoDecrypt(r.key, [restored]);
      expect(fromPython, r.name).toMatchObject({ ok: true });
      const fromJose = await flattenedDecrypt(
        restored as Parameters<typeof flattenedDecrypt>[0],
        nodeCodec.deriveKey(r.key),
        PINNED,
      );
      expect(hex(fromJose.plaintext)).toBe(hex(plaintextBytes(r.plaintext)));
    }
  });
});
