import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import {
  DIAGNOSTICS_KEYS,
  expectWrongKeyOpenTraced,
} from '@jwe-transport/test-support/diagnostics/wrong-key-open';
import type { RunningServer } from '@jwe-transport/test-support/server-conformance/adapter';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { Hono } from 'hono';
import { afterEach, describe, it } from 'vitest';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('jwe-transport:open on Hono', () => {
  it('publishes a wrong-key request as an error with its code and kid, without the keys', async () => {
    const app = new Hono();
    app.use(jwe({ keys: DIAGNOSTICS_KEYS }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    app.onError(jweErrorHandler());
    server = await serveFetch(app.fetch);
    await expectWrongKeyOpenTraced(`${server.url}/echo`);
  });
});
