import type { AddressInfo } from 'node:net';
import { jwe } from '@jwe-transport/fastify-plugin';
import {
  DIAGNOSTICS_KEYS,
  expectOpenAndSealTraced,
} from '@jwe-transport/test-support/diagnostics/server-events';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, it } from 'vitest';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('jwe-transport:open and jwe-transport:seal on Fastify', () => {
  it('publishes a sealed answer, a refusal before authentication and a sealed refusal, without the keys', async () => {
    app = Fastify();
    await app.register(jwe, { keys: DIAGNOSTICS_KEYS });
    app.post('/echo', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    await expectOpenAndSealTraced(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/echo`);
  });
});
