// Streamed uploads (files above streamThreshold, files sent with onUploadProgress) go through ky's
// own fetch call: ky's retry resends them sealed afresh from the file on disk, and ky's timeout
// applies. For ky 1.x and 2.x, against a real server that decrypts each attempt as it streams in.
import { fileFromPath } from '@jwe-transport/client-core';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress, type ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { type RecordingServer, SHARED_KEY } from '@jwe-transport/test-support/client/recording-server';
import { type Attempt, startRetryServer } from '@jwe-transport/test-support/client/streamed-retry-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwe } from '../../src/index.js';
import type { KyLike } from './ky-suite.js';

type KyProgress = { percent: number; transferredBytes: number; totalBytes: number };

/** Progress events split into attempts: a new attempt starts where the count falls back. */
export function attemptsOf(events: readonly KyProgress[]): ProgressPoint[][] {
  const attempts: ProgressPoint[][] = [];
  let previous = Number.POSITIVE_INFINITY;
  for (const { transferredBytes, totalBytes } of events) {
    if (transferredBytes < previous) attempts.push([]);
    attempts.at(-1)!.push({ loaded: transferredBytes, total: totalBytes });
    previous = transferredBytes;
  }
  return attempts;
}

const retryOnce = { limit: 1, methods: ['post'], statusCodes: [503], delay: () => 0 };

export function streamedRetrySuite(label: string, ky: KyLike, size = 10 * MiB + 5): void {
  describe(`${label} with jwe(): a streamed upload from disk goes through ky's retry and timeout`, () => {
    let server: RecordingServer<Attempt>;
    let file: Awaited<ReturnType<typeof makeLargeFile>>;
    let route = 0;
    beforeAll(async () => {
      server = await startRetryServer();
      file = await makeLargeFile(size);
    });
    afterAll(async () => {
      await server?.close();
      await file?.remove();
    });
    const attemptsAt = (path: string) => server.requests.filter((record) => record.path === path);
    const original = () => ({ size, sha256: file.sha256 });

    for (const carrier of ['Blob', 'FormData'] as const) {
      const bodyOf = async () => {
        const blob = await fileFromPath(file.path);
        if (carrier === 'Blob') return blob;
        const form = new FormData();
        form.set('file', blob, 'scan.bin');
        return form;
      };

      it(`a ${carrier} above streamThreshold, refused once with 503, is resealed: the full file on both attempts, two IVs`, async () => {
        const api = ky
          .create({ retry: retryOnce, timeout: 60_000 })
          .extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
        const path = `/retry-${carrier}-${++route}`;
        const answer = await api.post(`${server.url}${path}?fail=1`, { body: await bodyOf() }).json();
        expect(answer).toEqual({ file: original() });
        const attempts = attemptsAt(path);
        expect(attempts).toHaveLength(2);
        for (const attempt of attempts) {
          expect(attempt.streamed).toBe(true);
          expect(attempt.encrypted).toBe(true);
          expect(attempt.headers['x-jwe-transport-deferred']).toBeUndefined();
          expect(attempt.file).toEqual(original());
          expect(attempt.iv).toMatch(/^[\w-]{22}$/);
        }
        expect(attempts[0]!.iv).not.toBe(attempts[1]!.iv);
      });

      it(`a ${carrier} with onUploadProgress, retried: each attempt reports the file from 0 to its size`, async () => {
        const api = ky
          .create({ retry: retryOnce, timeout: false })
          .extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
        const path = `/progress-${carrier}-${++route}`;
        const events: KyProgress[] = [];
        await api
          .post(`${server.url}${path}?fail=1`, {
            body: await bodyOf(),
            onUploadProgress: (progress) => events.push({ ...progress }),
          })
          .json();
        const attempts = attemptsAt(path);
        expect(attempts.map((attempt) => attempt.file)).toEqual([original(), original()]);
        expect(attempts[0]!.iv).not.toBe(attempts[1]!.iv);
        const reported = attemptsOf(events);
        expect(reported).toHaveLength(2);
        for (const attempt of reported) {
          expect(attempt[0]!.loaded).toBeLessThanOrEqual(MiB);
          expectPlaintextProgress(attempt, size);
        }
        expect(events.at(-1)!.percent).toBe(1);
      });
    }

    it("ky's timeout applies to a streamed upload: a server that never answers is ky's TimeoutError", async () => {
      const api = ky.create({ retry: 0, timeout: 2_000 }).extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
      const path = `/held-${++route}`;
      const error = await api
        .post(`${server.url}${path}?hold=1`, { body: await fileFromPath(file.path) })
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect((error as Error | undefined)?.name).toBe('TimeoutError');
      expect(attemptsAt(path)).toHaveLength(1);
    });
  });
}
