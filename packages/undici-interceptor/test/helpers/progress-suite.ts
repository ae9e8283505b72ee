// undici: upload progress in plaintext bytes, through request()'s own option or the interceptor's
// (fetch() drops unknown options, so it reports through the interceptor's).
import { openAsBlob } from 'node:fs';
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress, type ProgressPoint } from '@jwe-transport/test-support/client/progress';
import * as undici7 from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jweInterceptor } from '../../src/index.js';
import type { Undici } from './undici-suite.js';

export function progressSuite(SIZE: number, undici: Undici = undici7, label = 'undici 7'): void {
  describe(`jweInterceptor on ${label}: upload progress, ${(SIZE / MiB).toFixed(1)} MiB`, () => {
    let server: Awaited<ReturnType<typeof startJweServer>>;
    let agent: InstanceType<Undici['Agent']>;
    let file: Awaited<ReturnType<typeof makeLargeFile>>;
    beforeAll(async () => {
      server = await startJweServer();
      agent = new undici.Agent();
      file = await makeLargeFile(SIZE);
    });
    afterAll(async () => {
      await agent.close();
      await server.close();
      await file.remove();
    });

    it('request({ onUploadProgress }) with a FormData file from disk', async () => {
      const dispatcher = agent.compose(jweInterceptor({ key: SHARED_KEY, origins: [server.origin] }));
      const events: ProgressPoint[] = [];
      const form = new undici.FormData();
      form.set('file', await openAsBlob(file.path), 'scan.bin');
      const options = {
        method: 'POST' as const,
        dispatcher,
        body: form,
        onUploadProgress: ({ loaded, total }: ProgressPoint) => events.push({ loaded, total }),
      };
      const response = await undici.request(`${server.url}/progress-request`, options);
      expect(response.statusCode).toBe(200);
      await response.body.dump();
      expect(server.last().file).toEqual({ size: SIZE, sha256: file.sha256 });
      expectPlaintextProgress(events, SIZE);
    });

    it("fetch() with a Blob from disk, through the interceptor's option, with the request it belongs to", async () => {
      const events: ProgressPoint[] = [];
      const urls = new Set<string>();
      const dispatcher = agent.compose(
        jweInterceptor({
          key: SHARED_KEY,
          origins: [server.origin],
          onUploadProgress: ({ loaded, total }, request) => {
            events.push({ loaded, total });
            urls.add(`${request.method} ${request.url}`);
          },
        }),
      );
      const response = await undici.fetch(`${server.url}/progress-fetch`, {
        method: 'POST',
        dispatcher,
        // node:fs's Blob is the global Blob; undici's types name another.
        body: (await openAsBlob(file.path)) as unknown as import('undici').BodyInit,
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(server.last().file).toEqual({ size: SIZE, sha256: file.sha256 });
      expectPlaintextProgress(events, SIZE);
      expect([...urls]).toEqual([`POST ${server.url}/progress-fetch`]);
    });
    it("fetch() with undici's FormData of one file from disk: the file's size as total, from the first event", async () => {
      const events: ProgressPoint[] = [];
      const dispatcher = agent.compose(
        jweInterceptor({
          key: SHARED_KEY,
          origins: [server.origin],
          onUploadProgress: ({ loaded, total }) => events.push({ loaded, total }),
        }),
      );
      const form = new undici.FormData();
      form.set('file', await openAsBlob(file.path), 'scan "2026".bin');
      const response = await undici.fetch(`${server.url}/progress-fetch-form`, {
        method: 'POST',
        dispatcher,
        body: form,
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(server.last().file).toEqual({ size: SIZE, sha256: file.sha256 });
      expectPlaintextProgress(events, SIZE);
    });
  });
}
