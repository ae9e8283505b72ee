import { join } from 'node:path';
import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import { startChildServer } from '@jwe-transport/test-support/server-conformance/child-server';
import type { Request } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EXPRESS_VERSIONS,
  joseDecryptJson,
  KEY_A,
  KEYS,
  listen,
  postEncrypted,
  type Running,
} from './helpers.js';

describe.each(EXPRESS_VERSIONS)('5xx answers on $name', ({ create }) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('reports a route failure to onError and answers with a type and a code, not the message', async () => {
    const reported: Array<{ error: unknown; path: string; status: number }> = [];
    const app = create();
    app.use(jwe({ keys: KEYS }));
    app.post('/fail', (req, _res, next) => next(new Error(`could not save ${req.body.secret}`)));
    app.use(
      jweErrorHandler({
        onError: (error, req: Request, status) => reported.push({ error, path: req.path, status }),
      }),
    );
    running = await listen(app);
    const response = await postEncrypted(
      `${running.url}/fail`,
      await encryptJson({ secret: 'plaintext-123' }, KEY_A, { kid: 'kid-a' }),
    );
    expect(response.status).toBe(500);
    expect(await joseDecryptJson(KEY_A, await response.json())).toEqual({
      error: { type: 'server.error', code: 'ERR_INTERNAL', message: 'Internal Server Error' },
    });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ path: '/fail', status: 500 });
    expect((reported[0]!.error as Error).message).toBe('could not save plaintext-123');
  });

  it('does not report 4xx answers', async () => {
    const reported: unknown[] = [];
    const app = create();
    app.use(jwe({ keys: KEYS }));
    app.post('/x', (_req, res) => res.json({}));
    app.use(jweErrorHandler({ onError: (error) => reported.push(error) }));
    running = await listen(app);
    const response = await postEncrypted(`${running.url}/x`, '{"not":"an envelope"}');
    expect(response.status).toBe(400);
    expect(reported).toEqual([]);
  });
});

const startFixture = (env: Record<string, string> = {}) =>
  startChildServer(join(import.meta.dirname, 'fixtures/failing-route-server.mjs'), {
    ROUTE_KEY: KEY_A,
    ...env,
  });

describe('the default report, on stderr', () => {
  it('logs a refusal on stderr with the method, path, status, code and kid, and no key', async () => {
    const fixture = await startFixture();
    try {
      const response = await postEncrypted(
        `${fixture.url}/orders?token=abc`,
        await encryptJson({ card: '4111-1111' }, 'ponmlkjihgfedcba', { kid: 'kid-a' }),
      );
      expect(response.status).toBe(400);
      await fixture.until(() => fixture.output().stderr.includes('jwe: refused'));
      const { stdout, stderr } = fixture.output();
      expect(stderr).toContain('jwe: refused POST /orders 400 ERR_JWE_DECRYPTION_FAILED kid="kid-a"\n');
      // stdout stays the application's.
      expect(stdout).toBe('');
      expect(stdout + stderr).not.toContain('token=abc');
      expect(stdout + stderr).not.toContain(KEY_A);
    } finally {
      await fixture.stop();
    }
  });

  it('logs a 5xx on stderr with the method, path and stack, and without the key or the decrypted body', async () => {
    const fixture = await startFixture();
    try {
      const response = await postEncrypted(
        `${fixture.url}/orders?token=abc`,
        await encryptJson({ card: '4111-1111' }, KEY_A, { kid: 'kid-a' }),
      );
      expect(response.status).toBe(500);
      await fixture.until(() => fixture.output().stderr.includes('\n    at '));
      const { stdout, stderr } = fixture.output();
      expect(stderr).toContain(
        'jwe: failed POST /orders 500 ERR_INTERNAL kid="kid-a"\nError: the database is down',
      );
      expect(stdout + stderr).not.toContain(KEY_A);
      expect(stdout + stderr).not.toContain('4111-1111');
      expect(stdout + stderr).not.toContain('token=abc');
    } finally {
      await fixture.stop();
    }
  });

  it('logs nothing with logger: false', async () => {
    const fixture = await startFixture({ QUIET: '1' });
    try {
      const refused = await postEncrypted(
        `${fixture.url}/orders`,
        await encryptJson({ a: 1 }, 'ponmlkjihgfedcba', { kid: 'kid-a' }),
      );
      expect(refused.status).toBe(400);
      const failed = await postEncrypted(
        `${fixture.url}/orders`,
        await encryptJson({ a: 1 }, KEY_A, { kid: 'kid-a' }),
      );
      expect(failed.status).toBe(500);
    } finally {
      await fixture.stop();
    }
    // The child's streams have closed: everything it wrote has been read.
    expect(fixture.output()).toEqual({ stdout: '', stderr: '' });
  });
});
