// createJweFetch's onUploadProgress on a 64 MiB file from disk.
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { expectPlaintextProgress, type ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, fileFromPath } from '../../src/index.node.js';

const SIZE = 64 * MiB;

describe('createJweFetch: onUploadProgress, 64 MiB from disk', () => {
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

  it('reports plaintext bytes, total = the size from the first event, last = the size, one per 4 MiB at least', async () => {
    const jweFetch = createJweFetch({ key: SHARED_KEY, origins: [server.origin] });
    const events: ProgressPoint[] = [];
    const form = new FormData();
    form.set('file', await fileFromPath(file.path), 'scan.bin');
    const response = await jweFetch(`${server.url}/progress`, {
      method: 'POST',
      body: form,
      onUploadProgress: ({ loaded, total }) => events.push({ loaded, total }),
    });
    expect(response.status).toBe(200);
    expect(server.last().file).toEqual({ size: SIZE, sha256: file.sha256 });
    expectPlaintextProgress(events, SIZE);
  });
});
