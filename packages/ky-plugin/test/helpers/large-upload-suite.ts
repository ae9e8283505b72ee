// A 200 MiB upload through ky with jwe(), streamed from disk, for ky 1.x and 2.x.

import { MiB, withMemoryWatch } from '@jwe-transport/test-support/client/large-file';
import { largeUploadFixture } from '@jwe-transport/test-support/client/large-upload-fixture';
import { describe, expect, it } from 'vitest';
import { jwe } from '../../src/index.js';
import type { KyLike } from './ky-suite.js';
import { SHARED_KEY, startTestServer } from './test-server.js';

/** `form`: the file in a FormData (ky 2.x keeps it out of its Request); `blob`: the file as the body. */
export function largeUploadSuite(label: string, ky: KyLike, carrier: 'form' | 'blob'): void {
  describe(`a 200 MiB document upload through ${label}, sent as a ${carrier === 'form' ? 'FormData' : 'Blob'}`, () => {
    const fixture = largeUploadFixture(startTestServer);

    it('streams the envelope from disk to a server that stream-decrypts it, in bounded memory', async () => {
      const { server, file } = fixture;
      const api = ky.create({ timeout: false }).extend(jwe({ key: SHARED_KEY, kid: 'kid-1' }));
      const form = new FormData();
      form.set('file', file.blob, 'scan.bin');
      const body = carrier === 'form' ? form : file.blob;
      const { result, growth } = await withMemoryWatch(() =>
        api
          .post(`${server.url}/mr/api/v2/docs`, { body, searchParams: { task: 'smart' } })
          .json<{ file: unknown }>(),
      );
      const received = server.requests.at(-1)!;
      expect(received.streamed).toBe(true);
      expect(received.query).toEqual({ task: 'smart' });
      expect(received.file).toEqual({ size: file.size, sha256: file.sha256 });
      expect(result.file).toEqual({ size: file.size, sha256: file.sha256 });
      expect(growth).toBeLessThan(64 * MiB);
    });
  });
}
