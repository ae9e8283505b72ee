// axios's onUploadProgress with useJwe: the file's plaintext bytes, at axios's own (throttled) cadence.
import { openAsBlob } from 'node:fs';
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress } from '@jwe-transport/test-support/client/progress';
import axios, { type AxiosProgressEvent } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJwe } from '../../src/index.node.js';

export function progressSuite(SIZE: number): void {
  describe(`useJwe: onUploadProgress, ${(SIZE / MiB).toFixed(1)} MiB`, () => {
    let server: Awaited<ReturnType<typeof startJweServer>>;
    let file: Awaited<ReturnType<typeof makeLargeFile>>;
    beforeAll(async () => {
      server = await startJweServer();
      file = await makeLargeFile(SIZE);
    });
    afterAll(async () => {
      await server.close();
      await file.remove();
    });

    for (const adapter of ['http', 'fetch'] as const) {
      for (const carrier of ['FormData', 'Blob'] as const) {
        it(`${adapter} adapter, a ${carrier} from disk: plaintext bytes, total = the size, last = the size`, async () => {
          const api = axios.create({ adapter });
          useJwe(api, { key: SHARED_KEY, origins: [server.origin] });
          const events: AxiosProgressEvent[] = [];
          const blob = await openAsBlob(file.path);
          const form = new FormData();
          form.set('file', blob, 'scan.bin');
          const config = { onUploadProgress: (event: AxiosProgressEvent) => events.push(event) };
          const { data } = await api.post(
            `${server.url}/progress-${adapter}-${carrier}`,
            carrier === 'FormData' ? form : blob,
            config,
          );
          expect(data).toMatchObject({ encrypted: true, file: { size: SIZE, sha256: file.sha256 } });
          // axios throttles its events by time; each one carries the plaintext count at that moment.
          expectPlaintextProgress(
            events.map(({ loaded, total }) => ({ loaded, total })),
            SIZE,
            { throttled: true },
          );
          for (const event of events) {
            expect(event.upload).toBe(true);
            expect(event.progress).toBeCloseTo(event.loaded / SIZE, 10);
          }
        });
      }
    }
  });
}
