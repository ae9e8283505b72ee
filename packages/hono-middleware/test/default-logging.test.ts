import { join } from 'node:path';
import { encryptJson } from '@jwe-transport/codec';
import { startChildServer } from '@jwe-transport/test-support/server-conformance/child-server';
import { describe, expect, it } from 'vitest';

const KEY = 'abcdefghijklmnop';
const WRONG = 'ponmlkjihgfedcba';
const start = (env: Record<string, string> = {}) =>
  startChildServer(join(import.meta.dirname, 'fixtures/default-logging-server.mjs'), {
    ROUTE_KEY: KEY,
    ...env,
  });

const post = async (url: string, key: string, value: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
    body: JSON.stringify(await encryptJson(value, key, { kid: 'kid-a' })),
  });

describe('Hono refusals by default, on stderr', () => {
  it('logs a refusal and a 5xx with the method, path, status, code and kid; never the key, body or query', async () => {
    const server = await start();
    try {
      expect((await post(`${server.url}/orders?token=abc`, WRONG, { card: '4111-1111' })).status).toBe(400);
      expect((await post(`${server.url}/orders?token=abc`, KEY, { card: '4111-1111' })).status).toBe(500);
      await server.until(() => server.output().stderr.includes('\n    at '));
      const { stdout, stderr } = server.output();
      expect(stderr).toContain('jwe: refused POST /orders 400 ERR_JWE_DECRYPTION_FAILED kid="kid-a"\n');
      expect(stderr).toContain(
        'jwe: failed POST /orders 500 ERR_INTERNAL kid="kid-a"\nError: the database is down',
      );
      expect(stdout).toBe('');
      for (const secret of [KEY, WRONG, '4111-1111', 'token=abc']) expect(stderr).not.toContain(secret);
    } finally {
      await server.stop();
    }
  });

  it('logs nothing with logger: false', async () => {
    const server = await start({ QUIET: '1' });
    try {
      expect((await post(`${server.url}/orders`, WRONG, { a: 1 })).status).toBe(400);
      expect((await post(`${server.url}/orders`, KEY, { a: 1 })).status).toBe(500);
    } finally {
      await server.stop();
    }
    expect(server.output()).toEqual({ stdout: '', stderr: '' });
  });
});
