import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
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

describe('the default 5xx report', () => {
  it('goes to stderr with the method, path and stack, and without the key or the decrypted body', async () => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures/failing-route-server.mjs')], {
      env: { ...process.env, ROUTE_KEY: KEY_A },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [line] = (await once(child.stdout!, 'data')) as [Buffer];
      const { port } = JSON.parse(line.toString());
      let stderr = '';
      const logged = new Promise<void>((resolve) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk;
          if (stderr.includes('\n    at ')) resolve();
        });
      });
      const response = await postEncrypted(
        `http://127.0.0.1:${port}/orders?token=abc`,
        await encryptJson({ card: '4111-1111' }, KEY_A, { kid: 'kid-a' }),
      );
      expect(response.status).toBe(500);
      await logged;
      expect(stderr).toContain('jweErrorHandler: 500 for POST /orders: Error: the database is down');
      expect(stderr).not.toContain(KEY_A);
      expect(stderr).not.toContain('4111-1111');
      expect(stderr).not.toContain('token=abc');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
