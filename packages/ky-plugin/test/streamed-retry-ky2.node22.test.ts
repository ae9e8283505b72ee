import { fileFromPath } from '@jwe-transport/client-core';
import { MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import { SHARED_KEY } from '@jwe-transport/test-support/client/recording-server';
import { startRetryServer } from '@jwe-transport/test-support/client/streamed-retry-server';
import ky2 from 'ky2';
import { describe, expect, it } from 'vitest';
import { jwe } from '../src/index.js';
import type { KyLike } from './helpers/ky-suite.js';
import { streamedRetrySuite } from './helpers/streamed-retry-suite.js';

streamedRetrySuite('ky 2.x', ky2 as unknown as KyLike);

// ky 2.x runs every beforeRequest hook, also those after one that returned a request (ky 1.x stops).
describe('ky 2.x with jwe(): a later hook that replaces a streamed upload’s request', () => {
  it('fails the call with a TypeError instead of sending the request without its file', async () => {
    const server = await startRetryServer();
    const file = await makeLargeFile(MiB);
    try {
      const api = ky2
        .create({ retry: 0, timeout: false })
        .extend(jwe({ key: SHARED_KEY, streamThreshold: 1024 }))
        .extend({
          hooks: { beforeRequest: [({ request }) => new Request(request, { headers: request.headers })] },
        });
      const error = await api.post(`${server.url}/replaced`, { body: await fileFromPath(file.path) }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(String(error)).toMatch(/replaced by a later hook/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
      await file.remove();
    }
  });
});
