import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import {
  DIAGNOSTICS_KEYS,
  expectOpenAndSealTraced,
} from '@jwe-transport/test-support/diagnostics/server-events';
import type { RunningServer } from '@jwe-transport/test-support/server-conformance/adapter';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { Hono } from 'hono';
import { afterEach, describe, it } from 'vitest';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('jwe-transport:open and jwe-transport:seal on Hono', () => {
  it('publishes a sealed answer, a refusal before authentication and a sealed refusal, without the keys', async () => {
    const app = new Hono();
    app.use(jwe({ keys: DIAGNOSTICS_KEYS, logger: false }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    app.onError(jweErrorHandler({ logger: false }));
    server = await serveFetch(app.fetch);
    await expectOpenAndSealTraced(`${server.url}/echo`);
  });
});
