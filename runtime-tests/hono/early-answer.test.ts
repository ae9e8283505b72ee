// A client adapter streaming a file from disk to Hono under Deno and Bun, over an upload limit:
// Bun answers 413 and closes the connection mid-upload; either way the caller gets the 413 and its
// error body, never EPIPE or ERR_JWE_UPLOAD_INTERRUPTED.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJweFetch, fileFromPath, wasDecrypted } from '@jwe-transport/client-core';
import type { RunningServer } from '@jwe-transport/test-support/server-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES } from '../support/runtimes.js';
import { runtimeHonoAdapter } from './runtime-adapter.js';

const MiB = 2 ** 20;
const KEYS = { 'kid-a': 'abcdefghijklmnop' } as const;
const TRIES = 5;

describe.each(RUNTIMES)('an upload from disk over the limit of Hono under %s', (runtime) => {
  let dir: string;
  let path: string;
  let server: RunningServer;
  const jweFetch = createJweFetch({ key: KEYS['kid-a'], kid: 'kid-a' });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jwe-early-answer-'));
    path = join(dir, 'scan.bin');
    // 64 MiB: far more than the socket buffers hold, so the server answers mid-upload.
    const file = await open(path, 'w');
    await file.truncate(64 * MiB);
    await file.close();
    server = await runtimeHonoAdapter(runtime).start({
      keys: KEYS,
      limit: 64 * 1024,
      upload: { dest: dir, limit: 4 * MiB, maxSpill: 4 * MiB },
      memoryUpload: { limit: 4 * MiB },
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is reported as the 413 with its error body, every time (createJweFetch)', async () => {
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const form = new FormData();
      form.set('file', await fileFromPath(path), 'scan.bin');
      const response = await jweFetch(`${server.url}/upload`, { method: 'POST', body: form });
      expect(response.status).toBe(413);
      // The envelope could not be opened, so the server's refusal is plain JSON.
      expect(wasDecrypted(response)).toBe(false);
      expect(await response.json()).toMatchObject({ error: { type: 'entity.too.large' } });
    }
  });
});
