import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import {
  DIAGNOSTICS_KEYS,
  expectWrongKeyOpenTraced,
} from '@jwe-transport/test-support/diagnostics/wrong-key-open';
import { afterEach, describe, it } from 'vitest';
import { EXPRESS_VERSIONS, listen, type Running } from './helpers.js';

let server: Running | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(EXPRESS_VERSIONS)('jwe-transport:open on $name', ({ create }) => {
  it('publishes a wrong-key request as an error with its code and kid, without the keys', async () => {
    const app = create();
    app.use(jwe({ keys: DIAGNOSTICS_KEYS }));
    app.post('/echo', (req, res) => {
      res.json(req.body);
    });
    app.use(jweErrorHandler());
    server = await listen(app);
    await expectWrongKeyOpenTraced(`${server.url}/echo`);
  });
});
