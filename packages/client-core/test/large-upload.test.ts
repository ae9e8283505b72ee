import {
  type LargeFile,
  MiB,
  makeLargeFile,
  withMemoryWatch,
} from '@jwe-transport/test-support/client/large-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, fileFromPath, wasDecrypted } from '../src/index.node.js';
import { type Service, SHARED_KEY, startService } from './helpers/service.js';

describe('a 200 MiB upload streamed from disk through createJweFetch', () => {
  let service: Service;
  let file: LargeFile;
  const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'kid-1' });
  const upload = async (query: string) => {
    const form = new FormData();
    form.set('file', await fileFromPath(file.path), 'scan.bin');
    return jweFetch(`${service.url}/docs?${query}`, { method: 'POST', body: form });
  };

  beforeAll(async () => {
    service = await startService();
    file = await makeLargeFile();
  });
  afterAll(async () => {
    await service.close();
    await file.remove();
  });

  it('arrives whole through fetch (undici), in bounded memory', async () => {
    const { result, growth } = await withMemoryWatch(async () => (await upload('task=smart')).json());
    const arrival = service.arrivals.at(-1)!;
    expect(arrival.streamed).toBe(true);
    expect(arrival.headers['transfer-encoding']).toBe('chunked');
    expect(arrival.file).toEqual({ size: file.size, sha256: file.sha256 });
    expect(result).toMatchObject({ file: { size: file.size, sha256: file.sha256 } });
    // The file is 200 MiB and its base64 267 MiB; a stream holds a few chunks at a time.
    expect(growth).toBeLessThan(64 * MiB);
  });

  for (const status of [413, 401]) {
    it(`is reported as the ${status} the server answered before reading it, every time (never EPIPE)`, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await upload(`refuse=1&status=${status}`);
        expect(response.status).toBe(status);
        expect(wasDecrypted(response)).toBe(true);
        expect(await response.json()).toEqual({ error: `refused with ${status}` });
      }
    });
  }

  it('is the 413 the server answered before hanging up on the unread upload, every time', async () => {
    // Closing a socket with unread data makes the kernel reset it; the answer that came first counts.
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await upload('refuse=1&status=413&hangup=1');
      expect(response.status).toBe(413);
      expect(wasDecrypted(response)).toBe(true);
      expect(await response.json()).toEqual({ error: 'refused with 413' });
    }
  });
});
