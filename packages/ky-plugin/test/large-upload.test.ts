import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LargeFile,
  MiB,
  makeLargeFile,
  withMemoryWatch,
} from '../../client-core/test/helpers/large-file.js';
import { createJweFetch } from '../src/index.js';
import { SHARED_KEY, startTestServer, type TestServer } from './helpers/test-server.js';

describe('a 200 MiB document upload through createJweFetch', () => {
  let server: TestServer;
  let file: LargeFile;

  beforeAll(async () => {
    server = await startTestServer();
    file = await makeLargeFile();
  });
  afterAll(async () => {
    await server.close();
    await file.remove();
  });

  it('streams the envelope from disk to a server that stream-decrypts it, in bounded memory', async () => {
    const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'kid-1' });
    const form = new FormData();
    form.set('file', file.blob, 'scan.bin');
    const { result, growth } = await withMemoryWatch(async () => {
      const response = await jweFetch(`${server.url}/mr/api/v2/docs?task=smart`, {
        method: 'POST',
        body: form,
      });
      return (await response.json()) as { file: unknown };
    });
    const received = server.requests.at(-1)!;
    expect(received.streamed).toBe(true);
    expect(received.file).toEqual({ size: file.size, sha256: file.sha256 });
    expect(result.file).toEqual({ size: file.size, sha256: file.sha256 });
    // The file alone is 200 MiB and its base64 267 MiB; streaming holds a few chunks.
    expect(growth).toBeLessThan(64 * MiB);
  });
});
