// A 64 MiB file from disk, refused once with 503 and resealed by ky's retry, with upload progress
// on: both attempts carry the whole file, and the process's resident memory stays well under it.
import { fileFromPath } from '@jwe-transport/client-core';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress } from '@jwe-transport/test-support/client/progress';
import type { RecordingServer } from '@jwe-transport/test-support/client/recording-server';
import { SHARED_KEY } from '@jwe-transport/test-support/client/recording-server';
import { type Attempt, startRetryServer } from '@jwe-transport/test-support/client/streamed-retry-server';
import ky from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwe } from '../../src/index.js';
import { attemptsOf } from '../helpers/streamed-retry-suite.js';

const SIZE = 64 * MiB;

/** Runs `work`, sampling memory meanwhile; returns the peak growth of resident memory and of buffers. */
async function withMemoryWatch<T>(
  work: () => Promise<T>,
): Promise<{ result: T; rss: number; buffers: number }> {
  const start = process.memoryUsage();
  const peak = { rss: start.rss, buffers: start.arrayBuffers };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.buffers = Math.max(peak.buffers, now.arrayBuffers);
  };
  const sampler = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, rss: peak.rss - start.rss, buffers: peak.buffers - start.arrayBuffers };
  } finally {
    clearInterval(sampler);
  }
}

describe('ky 1.x with jwe(): a 64 MiB upload from disk retried after a 503', () => {
  let server: RecordingServer<Attempt>;
  let file: Awaited<ReturnType<typeof makeLargeFile>>;
  beforeAll(async () => {
    server = await startRetryServer();
    file = await makeLargeFile(SIZE);
  });
  afterAll(async () => {
    await server?.close();
    await file?.remove();
  });

  it('is resealed from disk for the retry, with progress per attempt, in bounded memory', async () => {
    const api = ky
      .create({
        retry: { limit: 1, methods: ['post'], statusCodes: [503], delay: () => 0 },
        timeout: 120_000,
      })
      .extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
    const events: { percent: number; transferredBytes: number; totalBytes: number }[] = [];
    // A first retried upload grows the heaps, sockets and buffers any upload needs: what the 64 MiB
    // one adds on top of that is what would grow with the file.
    const warmUp = await makeLargeFile(9 * MiB);
    try {
      await api
        .post(`${server.url}/warm-up?fail=1`, {
          body: await fileFromPath(warmUp.path),
          onUploadProgress: () => {},
        })
        .json();
    } finally {
      await warmUp.remove();
    }
    const body = await fileFromPath(file.path);
    const { result, rss, buffers } = await withMemoryWatch(() =>
      api
        .post(`${server.url}/large-retry?fail=1`, {
          body,
          onUploadProgress: (progress) => events.push({ ...progress }),
        })
        .json(),
    );
    const original = { size: SIZE, sha256: file.sha256 };
    expect(result).toEqual({ file: original });
    const attempts = server.requests.filter((record) => record.path === '/large-retry');
    expect(attempts.map((attempt) => [attempt.streamed, attempt.file])).toEqual([
      [true, original],
      [true, original],
    ]);
    expect(attempts[0]!.iv).not.toBe(attempts[1]!.iv);
    const reported = attemptsOf(events);
    expect(reported).toHaveLength(2);
    for (const attempt of reported) expectPlaintextProgress(attempt, SIZE);
    console.log(
      `growth over two ${SIZE / MiB} MiB attempts: rss ${rss / MiB} MiB, buffers ${buffers / MiB} MiB`,
    );
    // Client and server share this process; either one holding an attempt would add its 64 MiB on
    // top of what any upload needs (the warm-up's). What remains is garbage not yet collected.
    expect(rss).toBeLessThan(SIZE * 0.875);
    expect(buffers).toBeLessThan(SIZE / 2);
  });
});
