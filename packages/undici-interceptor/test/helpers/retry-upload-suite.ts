// Retries of file uploads through undici's retry interceptor composed after jweInterceptor (so it
// runs first): each attempt is sealed afresh from the caller's re-readable file, under a new IV,
// whether the file is streamed (above streamThreshold, or with a progress listener) or buffered.
import { openAsBlob } from 'node:fs';
import { type LargeFile, MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress, type ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { SHARED_KEY } from '@jwe-transport/test-support/client/recording-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jweInterceptor } from '../../src/index.js';
import { type Attempt, startRetryServer } from './retry-server.js';
import type { Undici } from './undici-suite.js';

type Server = Awaited<ReturnType<typeof startRetryServer>>;

/** Splits progress events into attempts: a retry starts counting again from the file's start. */
export function progressAttempts(events: readonly ProgressPoint[]): ProgressPoint[][] {
  const attempts: ProgressPoint[][] = [];
  let previous = Number.POSITIVE_INFINITY;
  for (const event of events) {
    if (event.loaded < previous) attempts.push([]);
    attempts.at(-1)!.push(event);
    previous = event.loaded;
  }
  return attempts;
}

/** The largest growth of RSS and of `arrayBuffers` while `work` runs (client and server share this process). */
async function peakGrowth(work: () => Promise<void>): Promise<{ rss: number; arrayBuffers: number }> {
  const baseline = process.memoryUsage();
  const peak = { rss: baseline.rss, arrayBuffers: baseline.arrayBuffers };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return { rss: peak.rss - baseline.rss, arrayBuffers: peak.arrayBuffers - baseline.arrayBuffers };
}

export interface RetryUploadOptions {
  /** The file's size; 9 MiB and a bit by default, above the default streamThreshold. */
  size?: number;
  /** When set, the streamed retries must keep RSS growth below this many bytes. */
  memoryBound?: number;
}

export function retryUploadSuite(label: string, undici: Undici, options: RetryUploadOptions = {}): void {
  const SIZE = options.size ?? 9 * MiB + 7;
  const { memoryBound } = options;
  describe(`${label}: interceptors.retry after jweInterceptor reseals every attempt of an upload`, () => {
    let server: Server;
    let file: LargeFile;
    let agent: InstanceType<Undici['Agent']>;
    let dispatcher: ReturnType<InstanceType<Undici['Agent']>['compose']>;
    let paths = 0;
    const next = () => `/retry-${++paths}`;
    beforeAll(async () => {
      [server, file] = await Promise.all([startRetryServer(), makeLargeFile(SIZE)]);
      agent = new undici.Agent();
      dispatcher = agent.compose(
        jweInterceptor({ key: SHARED_KEY, origins: [server.url] }),
        undici.interceptors.retry({
          maxRetries: 1,
          minTimeout: 0,
          timeoutFactor: 1,
          methods: ['POST'],
          statusCodes: [503],
        }),
      );
    });
    if (memoryBound !== undefined) {
      // The first upload of a process grows its heap and code once (some 60-80 MiB of RSS, much
      // the same at 16 and 64 MiB): measure the uploads after it.
      beforeAll(async () => {
        await send(next(), await diskForm(), {});
      });
    }
    afterAll(async () => {
      await agent?.close();
      await server?.close();
      await file?.remove();
    });

    const attemptsAt = (path: string): Attempt[] => server.requests.filter((each) => each.path === path);

    /** Both attempts carried the whole file, each under its own IV; the second was answered. */
    function expectResealed(path: string, streamed: boolean) {
      const attempts = attemptsAt(path);
      expect(attempts.map((each) => each.status)).toEqual([503, 200]);
      for (const attempt of attempts) {
        expect(attempt.file).toEqual({ size: SIZE, sha256: file.sha256 });
        expect(attempt.streamed).toBe(streamed);
        expect(attempt.iv).toMatch(/^[\w-]{22}$/);
      }
      expect(attempts[0]!.iv).not.toBe(attempts[1]!.iv);
    }

    async function post(path: string, body: unknown, extra: object = {}) {
      if (memoryBound === undefined) return send(path, body, extra);
      const growth = await peakGrowth(() => send(path, body, extra));
      console.info(
        `${label} ${path}: peak growth rss ${(growth.rss / MiB).toFixed(1)} MiB, arrayBuffers ${(growth.arrayBuffers / MiB).toFixed(1)} MiB`,
      );
      expect(growth.rss).toBeLessThan(memoryBound);
      expect(growth.arrayBuffers).toBeLessThan(memoryBound);
    }

    async function send(path: string, body: unknown, extra: object) {
      const response = await undici.request(`${server.url}${path}`, {
        method: 'POST',
        dispatcher,
        body,
        ...extra,
      } as Parameters<Undici['request']>[1]);
      const json = await response.body.json();
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-jwe-decrypted']).toBe('true');
      expect(json).toEqual({ file: { size: SIZE, sha256: file.sha256 } });
    }

    const diskForm = async () => {
      const form = new undici.FormData();
      form.set('file', await openAsBlob(file.path), 'scan.bin');
      return form;
    };

    it('request(): a FormData file from disk above streamThreshold, streamed on both attempts', async () => {
      const path = next();
      await post(path, await diskForm());
      expectResealed(path, true);
    });

    it('request(): a Blob from disk above streamThreshold', async () => {
      const path = next();
      await post(path, await openAsBlob(file.path));
      expectResealed(path, true);
    });

    it('request(): a File (read from disk) above streamThreshold', async () => {
      const path = next();
      await post(path, new File([await openAsBlob(file.path)], 'scan.bin'));
      expectResealed(path, true);
    });

    it('request({ onUploadProgress }): progress restarts from 0 on the retry and ends at the size', async () => {
      const path = next();
      const events: ProgressPoint[] = [];
      const onUploadProgress = ({ loaded, total }: ProgressPoint) => events.push({ loaded, total });
      await post(path, await diskForm(), { onUploadProgress });
      expectResealed(path, true);
      const attempts = progressAttempts(events);
      expect(attempts).toHaveLength(2);
      for (const attempt of attempts) {
        expect(attempt[0]!.loaded).toBeLessThan(SIZE);
        expectPlaintextProgress(attempt, SIZE);
      }
    });

    // undici's retry interceptor re-dispatches fetch()'s body, a generator the first attempt drained
    // (it spots a read Node stream, not a generator): sealing it would upload an empty file.
    it('fetch(): a retry of its one-shot body is refused, not sealed empty', async () => {
      const path = next();
      const sent = undici.fetch(`${server.url}${path}`, {
        method: 'POST',
        dispatcher,
        body: (await openAsBlob(file.path)) as unknown as import('undici').BodyInit,
      });
      const error = await sent.then(
        () => expect.fail('fetch() resolved'),
        (failure: Error & { cause?: { code?: string; message?: string } }) => failure,
      );
      expect(error.cause?.code, String(error.cause?.message)).toBe('ERR_JWE_BODY_UNSUPPORTED');
      expect(error.cause?.message).toContain('already read');
      const attempts = attemptsAt(path);
      expect(attempts.map((each) => each.status)).toEqual([503]);
      expect(attempts[0]!.file).toEqual({ size: SIZE, sha256: file.sha256 });
    });
    const retryBelow = () =>
      agent.compose(
        undici.interceptors.retry({
          maxRetries: 1,
          minTimeout: 0,
          timeoutFactor: 1,
          methods: ['POST'],
          statusCodes: [503],
        }),
        jweInterceptor({ key: SHARED_KEY, origins: [server.url] }),
      );

    it('the other order, retry before jweInterceptor: a buffered envelope is resent under the same IV', async () => {
      const path = next();
      const response = await undici.request(`${server.url}${path}`, {
        method: 'POST',
        dispatcher: retryBelow(),
        body: new Uint8Array(1000).fill(7),
      });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
      const attempts = attemptsAt(path);
      expect(attempts.map((each) => each.status)).toEqual([503, 200]);
      expect(attempts[0]!.iv).toMatch(/^[\w-]{22}$/);
      expect(attempts[0]!.iv).toBe(attempts[1]!.iv);
    });

    it('the other order, retry before jweInterceptor: a streamed envelope is not retried at all', async () => {
      const path = next();
      const sent = undici.request(`${server.url}${path}`, {
        method: 'POST',
        dispatcher: retryBelow(),
        body: await diskForm(),
      } as Parameters<Undici['request']>[1]);
      await expect(sent).rejects.toMatchObject({ code: 'UND_ERR_REQ_RETRY', statusCode: 503 });
      expect(attemptsAt(path).map((each) => each.status)).toEqual([503]);
    });
  });
}
