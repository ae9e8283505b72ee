import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import { jwe } from '@jwe-transport/fastify-plugin';
import { type ConformanceAdapter, runConformance } from '@jwe-transport/test-support/server-conformance';
import { sha256 } from '@jwe-transport/test-support/server-conformance/wire';
import Fastify from 'fastify';

const fastifyAdapter: ConformanceAdapter = {
  name: 'Fastify 5',
  async start(setup) {
    const app = Fastify({ forceCloseConnections: true });
    await app.register(multipart);
    await app.register(jwe, {
      keys: setup.keys,
      limit: setup.limit,
      ...(setup.missingProtected ? { missingProtected: setup.missingProtected } : {}),
    });
    app.post('/echo', async (request) => ({
      body: request.body,
      encrypted: request.jwe.encrypted,
      kid: request.jwe.kid,
    }));
    app.get('/hello', async () => ({ hello: 'world' }));
    app.post('/fail', async () => {
      throw new Error('internal detail');
    });
    app.post('/upload', { config: { jwe: { upload: setup.upload } } }, async (request) => ({
      size: request.jweFile?.size,
      path: request.jweFile?.path,
    }));
    app.post(
      '/upload-memory',
      { config: { jwe: { upload: { limit: setup.memoryUpload.limit } } } },
      async (request) => ({
        size: request.jweFile?.size,
        sha256: sha256(request.jweFile?.buffer ?? new Uint8Array()),
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      close: () => app.close(),
    };
  },
};

runConformance(fastifyAdapter);
