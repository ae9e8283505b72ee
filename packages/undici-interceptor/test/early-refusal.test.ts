// A server that answers before it has read a streamed upload (a 401, a 413) and drops the
// connection: the caller gets that answer, decrypted, never a bare EPIPE or ECONNRESET.

import {
  type JweTestServer,
  SHARED_KEY,
  startJweServer,
} from '@jwe-transport/test-support/client/jwe-server';
import { MiB } from '@jwe-transport/test-support/client/large-file';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jweInterceptor } from '../src/index.js';

const TRIES = 5;

describe('an upload refused before the server read it', () => {
  let server: JweTestServer;
  let agent: undici.Agent;
  let dispatcher: undici.Dispatcher;
  // Large enough that the server answers long before the client could have sent it all.
  const file = new Blob([new Uint8Array(48 * MiB).fill(7)]);

  beforeAll(async () => {
    server = await startJweServer();
    agent = new undici.Agent();
    dispatcher = agent.compose(
      jweInterceptor({ key: SHARED_KEY, origins: [server.origin], streamThreshold: MiB }),
    );
  });
  afterAll(async () => {
    await agent.close();
    await server.close();
  });

  for (const status of [401, 413]) {
    it(`reports ${status} with its decrypted body through undici.request, every time`, async () => {
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const form = new FormData();
        form.set('file', file, 'scan.bin');
        const response = await undici.request(`${server.url}/v1/docs?refuse=${status}`, {
          dispatcher,
          method: 'POST',
          body: form as unknown as undici.FormData,
        });
        expect(response.statusCode).toBe(status);
        expect(response.headers['x-jwe-decrypted']).toBe('true');
        expect(await response.body.json()).toEqual({ error: 'refused' });
        expect(server.last().headers['transfer-encoding']).toBe('chunked');
      }
    });

    it(`reports ${status} with its decrypted body through undici.fetch, every time`, async () => {
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const form = new undici.FormData();
        form.set('file', file, 'scan.bin');
        const response = await undici.fetch(`${server.url}/v1/docs?refuse=${status}`, {
          dispatcher,
          method: 'POST',
          body: form,
        });
        expect(response.status).toBe(status);
        expect(await response.json()).toEqual({ error: 'refused' });
      }
    });
  }
});
