// undici: a server that answers a streamed upload early (413) and closes the connection, as Bun
// does, is reported with that status and the decrypted body, not as EPIPE.
import { openAsBlob } from 'node:fs';
import { HANGUP_KEY, REFUSAL, useHangupFixture } from '@jwe-transport/test-support/client/hangup-server';
import { MiB } from '@jwe-transport/test-support/client/large-file';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jweInterceptor } from '../src/index.js';

const TRIES = 5;

describe('jweInterceptor: an upload from disk refused by a server that then hangs up', () => {
  const fixture = useHangupFixture();
  let agent: undici.Agent;
  let dispatcher: undici.Dispatcher;

  beforeAll(() => {
    agent = new undici.Agent();
    dispatcher = agent.compose(
      jweInterceptor({ key: HANGUP_KEY, origins: [fixture.server.origin], streamThreshold: MiB }),
    );
  });
  afterAll(() => agent.close());

  it('undici.request: 413 with the decrypted body, every time', async () => {
    const { server, file } = fixture;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const form = new undici.FormData();
      form.set('file', await openAsBlob(file.path), 'scan.bin');
      const response = await undici.request(`${server.url}/upload`, {
        dispatcher,
        method: 'POST',
        body: form,
      });
      expect(response.statusCode).toBe(413);
      expect(response.headers['x-jwe-decrypted']).toBe('true');
      expect(await response.body.json()).toEqual(REFUSAL);
    }
    expect(server.lastHeaders?.['transfer-encoding']).toBe('chunked');
  });

  it('undici.fetch: 413 with the decrypted body, every time', async () => {
    const { server, file } = fixture;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const form = new undici.FormData();
      form.set('file', await openAsBlob(file.path), 'scan.bin');
      const response = await undici.fetch(`${server.url}/upload`, { dispatcher, method: 'POST', body: form });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual(REFUSAL);
    }
  });
});
