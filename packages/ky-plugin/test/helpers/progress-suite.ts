// ky's onUploadProgress with jwe(): the file's plaintext bytes as it is sealed and sent, for ky 1.x and 2.x.
import { fileFromPath } from '@jwe-transport/client-core';
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress, type ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwe } from '../../src/index.js';
import type { KyLike } from './ky-suite.js';

type KyProgress = { percent: number; transferredBytes: number; totalBytes: number };

export function progressSuite(label: string, ky: KyLike, size = 6 * MiB + 3): void {
  describe(`${label} with jwe(): onUploadProgress`, () => {
    let server: Awaited<ReturnType<typeof startJweServer>>;
    let file: Awaited<ReturnType<typeof makeLargeFile>>;
    beforeAll(async () => {
      server = await startJweServer();
      file = await makeLargeFile(size);
    });
    afterAll(async () => {
      await server.close();
      await file.remove();
    });

    for (const carrier of ['FormData', 'Blob'] as const) {
      it(`a ${carrier} from disk: plaintext bytes, total = the size from the first event, last = the size`, async () => {
        const api = ky.create({ retry: 0, timeout: false }).extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
        const raw: KyProgress[] = [];
        const blob = await fileFromPath(file.path);
        const form = new FormData();
        form.set('file', blob, 'scan.bin');
        const answer = await api
          .post(`${server.url}/progress-${carrier}`, {
            body: carrier === 'FormData' ? form : blob,
            onUploadProgress: (progress) => raw.push({ ...progress }),
          })
          .json();
        expect(answer).toMatchObject({ encrypted: true, file: { size, sha256: file.sha256 } });
        expectPlaintextProgress(
          raw.map((event) => ({
            loaded: event.transferredBytes,
            total: event.totalBytes,
          })) satisfies ProgressPoint[],
          size,
        );
        expect(raw.at(-1)!.percent).toBe(1);
        for (const event of raw) expect(event.percent).toBeCloseTo(event.transferredBytes / size, 10);
      });
    }
  });
}
