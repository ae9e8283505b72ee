import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwe, jweErrorHandler, uploadedFile } from '@jwe-transport/express-middleware';
import type { ConformanceAdapter } from '@jwe-transport/test-support/server-conformance';
import { sha256 } from '@jwe-transport/test-support/server-conformance/wire';
import express from 'express';

/** The Express middleware, held to the same suite as the core's own adapters. */
export const expressAdapter: ConformanceAdapter = {
  name: 'Express 5 (express-middleware)',
  start(setup) {
    const app = express();
    const transport = jwe({
      keys: setup.keys,
      limit: setup.limit,
      ...(setup.missingProtected ? { missingProtected: setup.missingProtected } : {}),
    });
    app.post('/echo', transport, (req, res) => {
      res.json({ body: req.body, encrypted: req.jwe?.encrypted, kid: req.jwe?.kid });
    });
    app.get('/hello', transport, (_req, res) => {
      res.json({ hello: 'world' });
    });
    app.post('/fail', transport, () => {
      throw new Error('internal detail');
    });
    app.post(
      '/upload',
      transport.upload({
        dest: setup.upload.dest,
        limit: setup.upload.limit,
        maxSpill: setup.upload.maxSpill,
      }),
      (req, res) => {
        const file = uploadedFile(req);
        res.json({ size: file.size, path: file.path });
      },
    );
    app.post('/upload-memory', transport.upload({ limit: setup.memoryUpload.limit }), (req, res) => {
      const file = uploadedFile(req);
      res.json({ size: file.size, sha256: sha256(file.buffer ?? new Uint8Array()) });
    });
    app.use(jweErrorHandler());
    return new Promise((resolve, reject) => {
      const server: Server = app.listen(0, '127.0.0.1');
      server.once('error', reject);
      server.once('listening', () => {
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          close: () =>
            new Promise((done) => {
              server.closeAllConnections();
              server.close(() => done());
            }),
        });
      });
    });
  },
};
