import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jweUpload } from '@jwe-transport/hono-middleware/upload';
import { withJweUpload } from '@jwe-transport/server-core/node';
import type { RunningServer } from '@jwe-transport/test-support/server-conformance';
import { generatedFile } from '@jwe-transport/test-support/server-conformance/data';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { rawPost, writeAll } from '@jwe-transport/test-support/server-conformance/wire';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MiB = 2 ** 20;
const SIZE = 200 * MiB;
const KEYS = { 'kid-a': 'abcdefghijklmnop' };

async function digestOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A 200 MiB plain multipart upload, which Hono and the Web handler once held in memory (1.2 GB
 * peak): now streamed to disk, so the process grows by far less than the file.
 */
describe.each([
  [
    'Hono jweUpload',
    (dest: string) => {
      const app = new Hono();
      app.post('/upload', jweUpload({ keys: KEYS, dest, limit: '300mb' }), (c) => {
        const file = c.get('jweFile');
        return c.json({ size: file.size, path: file.path });
      });
      return serveFetch(app.fetch);
    },
  ],
  [
    'withJweUpload',
    (dest: string) =>
      serveFetch(
        withJweUpload((_request, file) => Response.json({ size: file.size, path: file.path }), {
          keys: KEYS,
          dest,
          limit: '300mb',
        }),
      ),
  ],
])('%s: a 200 MiB plain multipart upload', (_name, start) => {
  let dest = '';
  let server: RunningServer | undefined;
  beforeAll(async () => {
    dest = await mkdtemp(join(tmpdir(), 'jwe-multipart-large-'));
    server = await start(dest);
  });
  afterAll(async () => {
    await server?.close();
    await rm(dest, { recursive: true, force: true });
  });

  it('is stored intact while the process grows by less than 128 MiB', async () => {
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const file = generatedFile(SIZE, () => {
      peak = Math.max(peak, process.memoryUsage.rss());
    });
    async function* body() {
      yield Buffer.from(
        '--big\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n' +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      yield* file.chunks;
      yield Buffer.from('\r\n--big--\r\n');
    }
    const answer = await rawPost(
      `${server!.url}/upload`,
      { 'content-type': 'multipart/form-data; boundary=big', 'transfer-encoding': 'chunked' },
      (request, answered) => writeAll(request, body(), answered),
    );
    peak = Math.max(peak, process.memoryUsage.rss());
    expect(answer.status).toBe(200);
    const stored = JSON.parse(answer.text) as { size: number; path: string };
    expect(stored.size).toBe(SIZE);
    expect(await digestOf(stored.path)).toBe(file.digest());
    expect(peak - baseline).toBeLessThan(128 * MiB);
  });
});
