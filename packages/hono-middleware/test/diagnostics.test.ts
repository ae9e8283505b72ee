import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import {
  DIAGNOSTICS_KEYS,
  expectWrongKeyOpenTraced,
} from '@jwe-transport/test-support/diagnostics/wrong-key-open';
import { Hono } from 'hono';
import { afterEach, describe, it } from 'vitest';

let server: Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
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
    app.use(jwe({ keys: DIAGNOSTICS_KEYS }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    app.onError(jweErrorHandler());
    await expectWrongKeyOpenTraced(`${await listen(app)}/echo`);
  });
});
