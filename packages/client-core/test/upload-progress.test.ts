// createJweFetch's onUploadProgress: plaintext bytes of the file as it is sealed and sent.

import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import type { ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch } from '../src/index.node.js';
import { expectFileUploadProgress } from './helpers/upload-file-progress.js';

describe('createJweFetch: onUploadProgress', () => {
  let server: Awaited<ReturnType<typeof startJweServer>>;
  beforeAll(async () => {
    server = await startJweServer();
  });
  afterAll(() => server.close());

  for (const [label, size] of [
    ['a 6 MiB file from disk', 6 * MiB + 11],
    ['a 100 KiB file (below the stream threshold)', 100 * 1024],
  ] as const) {
    it(`${label}: monotonic plaintext bytes, total = the size from the first event, last = the size`, async () => {
      const file = await makeLargeFile(size);
      try {
        await expectFileUploadProgress(server, file);
      } finally {
        await file.remove();
      }
    });
  }

  it('a JSON body reports nothing and is sealed as before', async () => {
    const jweFetch = createJweFetch({ key: SHARED_KEY, origins: [server.origin] });
    const events: ProgressPoint[] = [];
    const response = await jweFetch(`${server.url}/progress-json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
      onUploadProgress: (event) => events.push(event),
    });
    expect(await response.json()).toMatchObject({ json: { a: 1 } });
    expect(events).toEqual([]);
  });
});
