// A caller's stream is read once: a retry of it fails closed (a JweRequestError before anything
// is sent again), never an empty or re-used envelope. Re-readable bodies are retried by the
// client conformance suite (conformance-*.test.ts).
import { Readable } from 'node:stream';
import { isJweRequestError } from '@jwe-transport/client-core';
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import axios from 'axios';
import axiosRetry from 'axios-retry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJwe } from '../src/index.node.js';

describe('useJwe with axios-retry: a one-shot stream', () => {
  let server: Awaited<ReturnType<typeof startJweServer>>;
  beforeAll(async () => {
    server = await startJweServer();
  });
  afterAll(() => server.close());

  for (const adapter of ['http', 'fetch'] as const) {
    it(`${adapter} adapter: is sent once; the retry is refused with ERR_JWE_BODY_UNSUPPORTED`, async () => {
      const api = axios.create({ baseURL: server.url, adapter });
      useJwe(api, { key: SHARED_KEY, origins: [server.origin] });
      axiosRetry(api, { retries: 2, retryDelay: () => 0, retryCondition: (e) => e.response?.status === 503 });
      const path = `/one-shot-${adapter}`;
      const error = await api
        .post(`${path}?fail=1`, Readable.from([Buffer.from('a stream that can be read once')]))
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(isJweRequestError(error), String(error)).toBe(true);
      expect((error as { code: string }).code).toBe('ERR_JWE_BODY_UNSUPPORTED');
      expect((error as Error).message).toMatch(/stream cannot be read twice/);
      expect(server.requests.filter((record) => record.path === path)).toHaveLength(1);
    });
  }
});
