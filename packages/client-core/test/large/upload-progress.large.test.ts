// createJweFetch's onUploadProgress on a 64 MiB file from disk.
import { startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFileUploadProgress } from '../helpers/upload-file-progress.js';

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
    await expectFileUploadProgress(server, file);
  });
});
