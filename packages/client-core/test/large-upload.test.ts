import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, fileFromPath, JweUploadError, wasDecrypted } from '../src/index.node.js';
import { type Service, SHARED_KEY, startService } from './helpers/service.js';

const MiB = 2 ** 20;
const SIZE = 200 * MiB + 77;

/** Writes SIZE pseudo-random bytes to a temp file at run time; returns its path and SHA-256. */
async function makeFile(dir: string): Promise<{ path: string; sha256: string }> {
  const path = join(dir, 'scan.bin');
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  const block = randomBytes(MiB);
  try {
    for (let written = 0, round = 0; written < SIZE; round++) {
      block.writeUInt32BE(round, 0);
      const chunk = block.subarray(0, Math.min(MiB, SIZE - written));
      hash.update(chunk);
      await handle.write(chunk);
      written += chunk.length;
    }
  } finally {
    await handle.close();
  }
  return { path, sha256: hash.digest('hex') };
}

/** The largest growth of `arrayBuffers` while `work` runs (client and server share this process). */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const baseline = process.memoryUsage().arrayBuffers;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }, 5);
  try {
    return { result: await work(), growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

describe('a 200 MiB upload streamed from disk through createJweFetch', () => {
  let service: Service;
  let dir: string;
  let file: { path: string; sha256: string };
  const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'kid-1' });
  const upload = async (query: string) => {
    const form = new FormData();
    form.set('file', await fileFromPath(file.path), 'scan.bin');
    return jweFetch(`${service.url}/docs?${query}`, { method: 'POST', body: form });
  };

  beforeAll(async () => {
    service = await startService();
    dir = await mkdtemp(join(tmpdir(), 'jwe-client-core-'));
    file = await makeFile(dir);
  });
  afterAll(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('arrives whole through fetch (undici), in bounded memory', async () => {
    const { result, growth } = await peakGrowth(async () => (await upload('task=smart')).json());
    const arrival = service.arrivals.at(-1)!;
    expect(arrival.streamed).toBe(true);
    expect(arrival.headers['transfer-encoding']).toBe('chunked');
    expect(arrival.file).toEqual({ size: SIZE, sha256: file.sha256 });
    expect(result).toMatchObject({ file: { size: SIZE, sha256: file.sha256 } });
    // The file is 200 MiB and its base64 267 MiB; a stream holds a few chunks at a time.
    expect(growth).toBeLessThan(64 * MiB);
  });

  for (const status of [413, 401]) {
    it(`is reported as the ${status} the server answered before reading it, every time (never EPIPE)`, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await upload(`refuse=1&status=${status}`);
        expect(response.status).toBe(status);
        expect(wasDecrypted(response)).toBe(true);
        expect(await response.json()).toEqual({ error: `refused with ${status}` });
      }
    });
  }

  it('is a typed error with the bytes sent, not a bare EPIPE, when the server hangs up unread', async () => {
    // Closing a socket with unread data makes the kernel reset it; the answer goes with it.
    for (let attempt = 0; attempt < 3; attempt++) {
      const outcome = await upload('refuse=1&status=413&hangup=1').then(
        (response) => response,
        (reason: unknown) => reason,
      );
      if (outcome instanceof Response) {
        expect(outcome.status).toBe(413);
        expect(await outcome.json()).toEqual({ error: 'refused with 413' });
        continue;
      }
      expect(outcome).toBeInstanceOf(JweUploadError);
      const error = outcome as JweUploadError;
      expect(error.code).toBe('ERR_JWE_UPLOAD_INTERRUPTED');
      expect(error.bytesSent).toBeGreaterThan(0);
      expect(error.message).toMatch(/closed \((EPIPE|ECONNRESET|UND_ERR_SOCKET)\) after \d+ bytes/);
      expect(error.message).toContain(`POST ${service.url}/docs`);
    }
  });
});
