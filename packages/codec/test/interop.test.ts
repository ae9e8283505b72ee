import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../src/envelope.js';
import { backends } from './support/backends.js';
import { b64u, fromB64u, toHex, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import {
  joseCDecrypt,
  joseCEncrypt,
  joseNpmDecrypt,
  joseNpmEncrypt,
  joseNpmEncryptCompact,
  joseNpmEncryptUnprotected,
  jwcryptoDecrypt,
  jwcryptoEncrypt,
} from './support/peers.js';

/*
 * Independent implementations: python3-jwcrypto and the jose C tool (subprocesses, see
 * test-vectors/peers/README.md) and npm `jose` pinned to dir + A128CBC-HS256.
 */

const KEY = 'int3rop-k3y-0016';
const UTF8_KEY = 'ключ12345678'; // 12 characters, 16 bytes of UTF-8

const plaintexts = fc.sample(
  fc.oneof(
    fc.uint8Array({ maxLength: 600 }),
    fc.string({ unit: 'grapheme', maxLength: 120 }).map(utf8),
    fc.jsonValue({ maxDepth: 3 }).map((v) => utf8(JSON.stringify(v))),
  ),
  { numRuns: 60, seed: 20_240_611 },
);
const edgePlaintexts = [0, 1, 15, 16, 17, 31, 32, 33].map((n) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 37) & 255),
);
const allBytes = Uint8Array.from({ length: 256 }, (_, i) => i);
const batch = [...edgePlaintexts, allBytes, ...plaintexts];

describe.each(backends)('interoperability, $name back end', ({ codec }) => {
  const asText = (bytes: Uint8Array) => toHex(bytes);

  it(`our envelopes decrypt with jwcrypto (${batch.length} in one process), flattened and compact`, async () => {
    const envelopes: Envelope[] = [];
    for (const [i, plaintext] of batch.entries())
      envelopes.push(await codec.encrypt(plaintext, KEY, { kid: `k${i}` }));
    const compacts = envelopes.map((e) => codec.toCompact(e));
    const results = await jwcryptoDecrypt(KEY, [...envelopes, ...compacts]);
    expect(results).toHaveLength(batch.length * 2);
    results.forEach((result, i) => {
      expect(result).toMatchObject({ ok: true });
      if (result.ok) expect(asText(result.plaintext)).toBe(asText(batch[i % batch.length]!));
    });
  });

  it('our file envelopes decrypt with jwcrypto and npm jose to {"file": <standard base64>}', async () => {
    const files = fc.sample(fc.uint8Array({ maxLength: 3000 }), { numRuns: 25, seed: 7 });
    const envelopes: Envelope[] = [];
    for (const file of files) envelopes.push(await codec.encryptFile(file, KEY));
    const fileOf = (payload: Uint8Array) =>
      toHex(
        new Uint8Array(
          Buffer.from((JSON.parse(new TextDecoder().decode(payload)) as { file: string }).file, 'base64'),
        ),
      );
    const results = await jwcryptoDecrypt(KEY, envelopes);
    for (const [i, result] of results.entries()) {
      expect(result).toMatchObject({ ok: true });
      if (result.ok) expect(fileOf(result.plaintext)).toBe(toHex(files[i]!));
      expect(fileOf(await joseNpmDecrypt(KEY, envelopes[i]!))).toBe(toHex(files[i]!));
    }
  });

  it('our envelopes decrypt with npm jose (dir and A128CBC-HS256 pinned), flattened and compact', async () => {
    for (const plaintext of batch) {
      const envelope = await codec.encrypt(plaintext, KEY, { kid: 'npm' });
      const { kid: _kid, ...flattened } = envelope;
      expect(asText(await joseNpmDecrypt(KEY, flattened))).toBe(asText(plaintext));
      expect(asText(await joseNpmDecrypt(KEY, codec.toCompact(envelope)))).toBe(asText(plaintext));
    }
  });

  it('our envelopes and files decrypt with the jose C tool', async () => {
    for (const plaintext of [edgePlaintexts[0]!, edgePlaintexts[4]!, allBytes]) {
      const envelope = await codec.encrypt(plaintext, KEY, { kid: 'c' });
      expect(asText(await joseCDecrypt(KEY, envelope))).toBe(asText(plaintext));
      expect(asText(await joseCDecrypt(KEY, codec.toCompact(envelope)))).toBe(asText(plaintext));
    }
    const file = await codec.encryptFile(allBytes, KEY);
    const payload = JSON.parse(new TextDecoder().decode(await joseCDecrypt(KEY, file))) as { file: string };
    expect(asText(new Uint8Array(Buffer.from(payload.file, 'base64')))).toBe(asText(allBytes));
  });

  it('a key given as 16 bytes of non-ASCII UTF-8 is derived the same way by every peer', async () => {
    const envelope = await codec.encrypt('utf-8 key', UTF8_KEY);
    const [fromPython] = await jwcryptoDecrypt(UTF8_KEY, [envelope]);
    expect(fromPython).toMatchObject({ ok: true });
    expect(new TextDecoder().decode(await joseNpmDecrypt(UTF8_KEY, envelope))).toBe('utf-8 key');
    const [peerMade] = await jwcryptoEncrypt(UTF8_KEY, utf8('from python'));
    expect(new TextDecoder().decode(await codec.decrypt(peerMade as never, UTF8_KEY))).toBe('from python');
  });

  it('jwcrypto envelopes (with top-level kid) decrypt with us, flattened and compact', async () => {
    for (const plaintext of [
      edgePlaintexts[0]!,
      edgePlaintexts[2]!,
      edgePlaintexts[3]!,
      allBytes,
      utf8('{"a":"ä"}'),
    ]) {
      const made = await jwcryptoEncrypt(KEY, plaintext, { kid: 'py', count: 3 });
      expect(made).toHaveLength(3);
      for (const envelope of made) {
        const result = await codec.decryptDetailed(envelope as never, KEY);
        expect(asText(result.plaintext)).toBe(asText(plaintext));
        expect(result.kid).toBe('py');
        const e = envelope as unknown as Envelope;
        const compact = `${e.protected}..${e.iv}.${e.ciphertext}.${e.tag}`;
        expect(asText(await codec.decrypt(compact, KEY))).toBe(asText(plaintext));
      }
    }
  });

  it('jose C envelopes decrypt with us, with and without its empty encrypted_key', async () => {
    for (const raw of [false, true]) {
      const envelope = await joseCEncrypt(KEY, utf8('from jose C'), { raw, kid: 'c' });
      expect('encrypted_key' in envelope).toBe(raw);
      expect(new TextDecoder().decode(await codec.decrypt(envelope as never, KEY))).toBe('from jose C');
    }
    const file = await joseCEncrypt(KEY, utf8(`{"file":"${Buffer.from(allBytes).toString('base64')}"}`));
    expect(asText(await codec.decryptFile(file as never, KEY))).toBe(asText(allBytes));
  });

  it('npm jose envelopes decrypt with us, flattened and compact', async () => {
    for (const plaintext of [edgePlaintexts[0]!, edgePlaintexts[5]!, allBytes]) {
      const flattened = await joseNpmEncrypt(KEY, plaintext);
      expect(asText(await codec.decrypt(flattened as never, KEY))).toBe(asText(plaintext));
      const compact = await joseNpmEncryptCompact(KEY, plaintext);
      expect(asText(await codec.decrypt(compact, KEY))).toBe(asText(plaintext));
    }
  });

  it('RFC 7516 "aad" made by npm jose is authenticated by us', async () => {
    const envelope = (await joseNpmEncrypt(KEY, utf8('with aad'), {
      aad: utf8('context'),
    })) as unknown as Envelope;
    expect(envelope.aad).toBe(b64u('context'));
    expect(new TextDecoder().decode(await codec.decrypt(envelope, KEY))).toBe('with aad');
    await expectJweError(
      () => codec.decrypt({ ...envelope, aad: b64u('contexT') }, KEY),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    const { aad: _aad, ...withoutAad } = envelope;
    await expectJweError(() => codec.decrypt(withoutAad, KEY), 'ERR_JWE_DECRYPTION_FAILED');
  });

  it('npm jose envelopes without a protected header (RFC empty AAD, with and without aad) read as "none"', async () => {
    for (const aad of [undefined, utf8('ctx')]) {
      const envelope = (await joseNpmEncryptUnprotected(
        KEY,
        utf8('no protected'),
        aad ? { aad } : {},
      )) as unknown as Envelope;
      expect(envelope.protected).toBeUndefined();
      const result = await codec.decryptDetailed(envelope, KEY);
      expect(result.headerSource).toBe('none');
      expect(new TextDecoder().decode(result.plaintext)).toBe('no protected');
      await expectJweError(
        () => codec.decrypt(envelope, KEY, { missingProtected: 'reject' }),
        'ERR_JWE_INVALID',
      );
    }
  });

  it('what we reject as tampered, the peers reject too', async () => {
    const envelope = await codec.encrypt('tamper', KEY);
    const tampered = (['iv', 'ciphertext', 'tag'] as const).map((member) => {
      const bytes = fromB64u(envelope[member]);
      bytes[bytes.length - 1]! ^= 0x10;
      return { ...envelope, [member]: b64u(bytes) };
    });
    for (const changed of tampered) {
      await expectJweError(() => codec.decrypt(changed, KEY), 'ERR_JWE_DECRYPTION_FAILED');
      await expect(joseNpmDecrypt(KEY, changed)).rejects.toThrow();
      await expect(joseCDecrypt(KEY, changed)).rejects.toThrow();
    }
    const verdicts = await jwcryptoDecrypt(KEY, tampered);
    expect(verdicts.map((v) => v.ok)).toEqual([false, false, false]);
  });
});
