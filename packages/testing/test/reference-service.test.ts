import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { createJweFetch, wasDecrypted } from '@jwe-transport/client-core';
import { describe, expect, it } from 'vitest';
import { startReferenceService } from '../src/reference-service/index.js';

const run = promisify(execFile);

/** Whether something can listen on the port again: the service let go of it. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('startReferenceService', () => {
  it('serves a sealed round trip to createJweFetch, then close() frees its port', async () => {
    const service = await startReferenceService();
    const port = Number(new URL(service.url).port);
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.keys).toEqual({ [service.kid]: service.key });
    expect(service.key).toHaveLength(16);
    try {
      const jweFetch = createJweFetch({ key: service.key, kid: service.kid, origins: [service.url] });
      const response = await jweFetch(`${service.url}/abdm/na/v1/registration/aadhaar/init`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
        body: JSON.stringify({ aadhaar_number: '999941057058' }),
      });
      expect(response.status).toBe(200);
      expect(wasDecrypted(response)).toBe(true);
      expect(await response.json()).toMatchObject({ status: 'otp_sent', txn_id: expect.any(String) });

      // The same endpoint refuses a plain body: the service really requires encryption.
      const plain = await fetch(`${service.url}/abdm/na/v1/registration/aadhaar/init`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}` },
        body: JSON.stringify({ aadhaar_number: '999941057058' }),
      });
      expect(plain.status).toBe(415);
      expect(await plain.json()).toMatchObject({ error: { code: 'ERR_JWE_REQUIRED' } });
      expect(await portIsFree(port)).toBe(false);
    } finally {
      await service.close();
    }
    expect(await portIsFree(port)).toBe(true);
    await expect(fetch(`${service.url}/`)).rejects.toThrow();
  });

  it('uses the keys and client it is given; its login accepts that client', async () => {
    const service = await startReferenceService({
      keys: { 'kid-a': 'aaaaaaaaaaaaaaaa', 'kid-b': 'bbbbbbbbbbbbbbbb' },
      clients: { 'my-client': 'my-client-secret' },
      tokens: ['static-token-1'],
    });
    try {
      expect(service).toMatchObject({
        kid: 'kid-a',
        key: 'aaaaaaaaaaaaaaaa',
        clientId: 'my-client',
        clientSecret: 'my-client-secret',
        token: 'static-token-1',
      });
      const login = await fetch(`${service.url}/connect-auth/v1/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'my-client', client_secret: 'my-client-secret' }),
      });
      expect(login.status).toBe(200);
      expect(await login.json()).toMatchObject({ access_token: expect.any(String), expires_in: 1800 });
      // The second key seals too.
      const jweFetch = createJweFetch({ key: 'bbbbbbbbbbbbbbbb', kid: 'kid-b', origins: [service.url] });
      const response = await jweFetch(`${service.url}/abdm/na/v1/registration/aadhaar/init`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer static-token-1' },
        body: JSON.stringify({ aadhaar_number: '999941057058' }),
      });
      expect(response.status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('refuses empty keys before it starts anything', async () => {
    await expect(startReferenceService({ keys: {} })).rejects.toThrow(/"keys" must name at least one entry/);
  });

  it('runs from the built package under import and require (the service is bundled in)', async () => {
    const script = (load: string) =>
      `${load}.then(async ({ startReferenceService }) => {
        const service = await startReferenceService();
        const answer = await fetch(service.url + '/connect-auth/v1/account/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: service.clientId, client_secret: service.clientSecret }),
        });
        await service.close();
        console.log(answer.status);
      })`;
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', script("import('@jwe-transport/testing/reference-service')")],
      { cwd: import.meta.dirname },
    );
    const cjs = await run(
      process.execPath,
      ['-e', script("Promise.resolve(require('@jwe-transport/testing/reference-service'))")],
      { cwd: import.meta.dirname },
    );
    expect([esm.stdout.trim(), cjs.stdout.trim()]).toEqual(['200', '200']);
  });

  it('imports the service from @jwe-transport/reference-service instead of carrying its code', async () => {
    for (const file of ['reference-service.js', 'reference-service.cjs']) {
      const built = await readFile(new URL(`../dist/${file}`, import.meta.url), 'utf8');
      expect(built).toMatch(/["']@jwe-transport\/reference-service["']/);
      // Names that exist only inside the service: none of its code is compiled in.
      for (const internal of ['PolicySigner', 'TokenIssuer', 'issuedTokenAuth', 'examples/service'])
        expect(built).not.toContain(internal);
    }
  });
});
