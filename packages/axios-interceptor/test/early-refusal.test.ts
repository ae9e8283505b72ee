// A server that answers a streamed upload before reading it (401, 413) and drops the connection:
// the caller gets that answer as an AxiosError with its status and decrypted body, not EPIPE.

import {
  type JweTestServer,
  SHARED_KEY,
  startJweServer,
} from '@jwe-transport/test-support/client/jwe-server';
import { MiB } from '@jwe-transport/test-support/client/large-file';
import axios, { isAxiosError } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJwe } from '../src/index.node.js';

const TRIES = 5;

describe('an axios upload refused before the server read it', () => {
  let server: JweTestServer;
  const file = new Blob([new Uint8Array(48 * MiB).fill(7)]);

  beforeAll(async () => {
    server = await startJweServer();
  });
  afterAll(async () => {
    await server.close();
  });

  for (const adapter of ['http', 'fetch'] as const) {
    for (const status of [401, 413]) {
      it(`reports ${status} with its decrypted body through the ${adapter} adapter, every time`, async () => {
        const api = axios.create({ baseURL: server.url, adapter });
        useJwe(api, { key: SHARED_KEY, streamThreshold: MiB });
        for (let attempt = 0; attempt < TRIES; attempt++) {
          const form = new FormData();
          form.set('file', file, 'scan.bin');
          const error = await api.post(`/v1/docs?refuse=${status}`, form).then(
            () => undefined,
            (reason: unknown) => reason,
          );
          expect(isAxiosError(error), String(error)).toBe(true);
          if (!isAxiosError(error)) return;
          expect(error.response?.status).toBe(status);
          expect(error.response?.data).toEqual({ error: 'refused' });
          // It was a streamed upload: no length announced, the envelope sent as it was made.
          expect(server.last().headers['content-length']).toBeUndefined();
          expect(server.last().headers['transfer-encoding']).toBe('chunked');
        }
      });
    }
  }
});
