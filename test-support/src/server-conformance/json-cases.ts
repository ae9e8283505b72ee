import { decryptJson, encrypt, encryptJson, keyring } from '@jwe-transport/codec';
import { describe, expect } from 'vitest';
import { loadMalformed, loadVectors, type MalformedCase } from '../../../test-vectors/index.js';
import { jwcryptoEncrypt } from '../../../test-vectors/peers/index.mjs';
import type { ConformanceAdapter } from './adapter.js';
import { check, EXPECTED, KEYS, LIMITS, useServer } from './servers.js';
import { joseOpenJson, joseSeal, postEncrypted, rawPost, sha256 } from './wire.js';

const VECTOR_KEY = 'k3y-f0r-t3st1ng!';
const vectors = loadVectors().filter((vector) => vector.kind === 'json' || vector.kind === 'file');

/** The malformed cases in groups that share a key configuration, one server per group. */
function malformedGroups(): { setup: MalformedCase; cases: MalformedCase[] }[] {
  const groups = new Map<string, MalformedCase[]>();
  for (const test of loadMalformed()) {
    const id = JSON.stringify([test.keys ?? test.key, test.options?.missingProtected]);
    groups.set(id, [...(groups.get(id) ?? []), test]);
  }
  return [...groups.values()].map((cases) => ({ setup: cases[0]!, cases }));
}

async function answerOf(response: Response, key: string) {
  expect(response.headers.get('x-encryption')).toBe('JWE');
  return joseOpenJson(key, await response.json());
}

export function jsonCases(adapter: ConformanceAdapter): void {
  const server = useServer(adapter, { keys: KEYS });

  describe('vectors and peers', () => {
    const vectorServer = useServer(adapter, { keys: () => VECTOR_KEY });

    check(adapter, 'shared vectors', async () => {
      expect(new Set(vectors.map((vector) => vector.producer)).size).toBeGreaterThan(1);
      for (const vector of vectors) {
        const route = vector.kind === 'json' ? '/echo' : '/upload-memory';
        const response = await postEncrypted(`${vectorServer.url}${route}`, vector.envelope);
        expect({ name: vector.name, status: response.status }).toEqual({ name: vector.name, status: 200 });
        const answer = await answerOf(response, vector.key);
        if (vector.kind === 'json') expect(answer).toMatchObject({ body: vector.json, encrypted: true });
        else
          expect(answer).toMatchObject({ sha256: sha256(Buffer.from(vector.file?.base64 ?? '', 'base64')) });
      }
    });

    check(adapter, 'sealed by npm jose', async () => {
      const envelope = await joseSeal(KEYS['kid-b'], JSON.stringify({ from: 'jose' }), 'kid-b');
      const response = await postEncrypted(`${server.url}/echo`, envelope);
      expect(response.status).toBe(200);
      expect(await answerOf(response, KEYS['kid-b'])).toEqual({
        body: { from: 'jose' },
        encrypted: true,
        kid: 'kid-b',
      });
    });

    check(adapter, 'sealed by jwcrypto', async () => {
      const json = new TextEncoder().encode(JSON.stringify({ from: 'jwcrypto' }));
      const [envelope] = await jwcryptoEncrypt(KEYS['kid-a'], json, { kid: 'kid-a' });
      const response = await postEncrypted(`${server.url}/echo`, envelope);
      expect(response.status).toBe(200);
      expect(await answerOf(response, KEYS['kid-a'])).toEqual({
        body: { from: 'jwcrypto' },
        encrypted: true,
        kid: 'kid-a',
      });
      const file = Buffer.alloc(64 * 1024, 7);
      const payload = new TextEncoder().encode(JSON.stringify({ file: file.toString('base64') }));
      const [upload] = await jwcryptoEncrypt(KEYS['kid-a'], payload, { kid: 'kid-a' });
      const stored = await postEncrypted(`${server.url}/upload`, upload);
      expect(stored.status).toBe(200);
      expect(await answerOf(stored, KEYS['kid-a'])).toMatchObject({ size: file.length });
    });
  });

  describe('malformed envelopes', () => {
    const groups = malformedGroups().map(({ setup, cases }) => ({
      cases,
      server: useServer(adapter, {
        keys: setup.keys ? keyring(setup.keys) : () => setup.key,
        ...(setup.options?.missingProtected ? { missingProtected: setup.options.missingProtected } : {}),
      }),
    }));

    check(adapter, 'malformed envelopes', async () => {
      expect(groups.flatMap((group) => group.cases).length).toBeGreaterThan(20);
      for (const { cases, server: group } of groups) {
        for (const test of cases) {
          const body = typeof test.input === 'string' ? test.input : JSON.stringify(test.input);
          const response = await postEncrypted(`${group.url}/echo`, body);
          const answer = (await response.json()) as { error?: { type?: string; code?: string } };
          expect({
            name: test.name,
            status: response.status,
            type: answer.error?.type,
            code: answer.error?.code,
          }).toEqual({
            name: test.name,
            ...EXPECTED[test.code],
            code: test.code,
          });
        }
      }
      const good = await postEncrypted(
        `${server.url}/echo`,
        await encryptJson({ still: 'serving' }, KEYS['kid-a'], { kid: 'kid-a' }),
      );
      expect(good.status).toBe(200);
    });
  });

  check(adapter, 'key rotation by kid', async () => {
    for (const kid of ['kid-a', 'kid-b'] as const) {
      const response = await postEncrypted(
        `${server.url}/echo`,
        await encryptJson({ kid }, KEYS[kid], { kid }),
      );
      expect(response.status).toBe(200);
      const envelope = (await response.json()) as { kid?: string };
      expect(envelope.kid).toBe(kid);
      expect(await joseOpenJson(KEYS[kid], envelope)).toEqual({ body: { kid }, encrypted: true, kid });
      const other = kid === 'kid-a' ? KEYS['kid-b'] : KEYS['kid-a'];
      await expect(decryptJson(envelope as Parameters<typeof decryptJson>[0], other)).rejects.toMatchObject({
        code: 'ERR_JWE_DECRYPTION_FAILED',
      });
    }
  });

  check(adapter, 'unknown kid', async () => {
    const response = await postEncrypted(
      `${server.url}/echo`,
      await encryptJson({ a: 1 }, KEYS['kid-a'], { kid: 'kid-z' }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toMatchObject({
      error: { type: 'jwe.kid.unknown', code: 'ERR_KEY_UNKNOWN' },
    });
  });

  check(adapter, 'plain requests pass through', async () => {
    const echoed = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plain: true }),
    });
    expect(echoed.status).toBe(200);
    expect(echoed.headers.get('x-encryption')).toBeNull();
    expect(await echoed.json()).toMatchObject({ body: { plain: true }, encrypted: false });
    const hello = await fetch(`${server.url}/hello`);
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ hello: 'world' });
  });

  check(adapter, 'X-Encryption twice', async () => {
    const envelope = JSON.stringify(await encryptJson({ a: 1 }, KEYS['kid-a'], { kid: 'kid-a' }));
    for (const value of ['JWE, JWE', ['JWE', 'JWE']]) {
      const answer = await rawPost(
        `${server.url}/echo`,
        { 'content-type': 'application/json', 'x-encryption': value },
        async (body) => {
          body.write(envelope);
        },
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'jwe.header.invalid' } });
    }
  });

  check(adapter, 'strict decrypted JSON', async () => {
    for (const text of [
      '{"a":1,"a":2}',
      '{"x":{"__proto__":{"admin":true}}}',
      '[{"constructor":{"prototype":{}}}]',
      '{"a":{"b\\u0022":1,"b\\"":2}}',
    ]) {
      const response = await postEncrypted(
        `${server.url}/echo`,
        await encrypt(text, KEYS['kid-a'], { kid: 'kid-a' }),
      );
      expect({ text, status: response.status }).toEqual({ text, status: 400 });
      expect(await answerOf(response, KEYS['kid-a'])).toMatchObject({
        error: { type: 'jwe.plaintext.invalid' },
      });
    }
  });

  check(adapter, 'route error is sealed and has a code', async () => {
    const response = await postEncrypted(
      `${server.url}/fail`,
      await encryptJson({ a: 1 }, KEYS['kid-b'], { kid: 'kid-b' }),
    );
    expect(response.status).toBe(500);
    const answer = (await answerOf(response, KEYS['kid-b'])) as {
      error: { code?: string; message?: string };
    };
    expect(answer.error.code).toEqual(expect.any(String));
    expect(JSON.stringify(answer)).not.toContain('internal detail');
  });

  check(adapter, 'JSON body over the limit', async () => {
    const big = { note: 'x'.repeat(LIMITS.json) };
    const response = await postEncrypted(
      `${server.url}/echo`,
      await encryptJson(big, KEYS['kid-a'], { kid: 'kid-a' }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { type: 'entity.too.large' } });
  });
}
