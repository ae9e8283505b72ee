import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import { type ChannelRecording, recordChannel } from '@jwe-transport/test-support/diagnostics';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

const KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' };
let server: Server | undefined;
let recording: ChannelRecording | undefined;
afterEach(async () => {
  recording?.stop();
  const running = server;
  server = recording = undefined;
  if (running) await new Promise<void>((done) => running.close(() => done()));
});

function listen(app: Hono): Promise<string> {
  return new Promise((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    ) as Server;
  });
}

describe('jwe-transport:open on Hono', () => {
  it('publishes a wrong-key request as an error with its code and kid, without the keys', async () => {
    const app = new Hono();
    app.use(jwe({ keys: KEYS }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    app.onError(jweErrorHandler());
    const url = await listen(app);
    recording = recordChannel('jwe-transport:open');

    const response = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      // kid-a's envelope sealed with kid-b's key: the tag cannot verify.
      body: JSON.stringify(await encryptJson({ hello: 'world' }, KEYS['kid-b'], { kid: 'kid-a' })),
    });
    expect(response.status).toBe(400);

    const errors = recording.events.filter((e) => e.event === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.context).toMatchObject({
      operation: 'open',
      side: 'server',
      kid: 'kid-a',
      outcome: 'refused',
      code: 'ERR_JWE_DECRYPTION_FAILED',
      error: { status: 400, code: 'ERR_JWE_DECRYPTION_FAILED' },
    });
    for (const secret of [...Object.values(KEYS), 'world'])
      expect(recording.serialized()).not.toContain(secret);
  });
});
