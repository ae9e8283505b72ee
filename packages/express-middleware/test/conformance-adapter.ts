import { jwe, jweErrorHandler, uploadedFile } from '@jwe-transport/express-middleware';
import type { ConformanceAdapter } from '@jwe-transport/test-support/server-conformance';
import { sha256 } from '@jwe-transport/test-support/server-conformance/wire';
import type { Express } from 'express';
import { EXPRESS_VERSIONS, listen } from './helpers.js';

/** The Express middleware on one Express major, held to the same suite as the core's own adapters. */
const expressAdapter = (name: string, create: () => Express): ConformanceAdapter => ({
  name: `${name} (express-middleware)`,
  start(setup) {
    const app = create();
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
        res.json({
          size: file.size,
          path: file.path,
          mimetype: file.mimetype,
          originalname: file.originalname ?? null,
        });
      },
    );
    app.post('/upload-memory', transport.upload({ limit: setup.memoryUpload.limit }), (req, res) => {
      const file = uploadedFile(req);
      res.json({
        size: file.size,
        sha256: sha256(file.buffer ?? new Uint8Array()),
        mimetype: file.mimetype,
      });
    });
    app.use(jweErrorHandler());
    return listen(app);
  },
});

export const expressAdapters = EXPRESS_VERSIONS.map(({ name, create }) => expressAdapter(name, create));
