import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import {
  DIAGNOSTICS_KEYS,
  expectOpenAndSealTraced,
} from '@jwe-transport/test-support/diagnostics/server-events';
import { afterEach, describe, it } from 'vitest';
import { EXPRESS_VERSIONS, listen, type Running } from './helpers.js';

let server: Running | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(EXPRESS_VERSIONS)('jwe-transport:open and jwe-transport:seal on $name', ({ create }) => {
  it('publishes a sealed answer, a refusal before authentication and a sealed refusal, without the keys', async () => {
    const app = create();
    app.use(jwe({ keys: DIAGNOSTICS_KEYS, logger: false }));
    app.post('/echo', (req, res) => {
      res.json(req.body);
    });
    app.use(jweErrorHandler({ logger: false }));
    server = await listen(app);
    await expectOpenAndSealTraced(`${server.url}/echo`);
  });
});
