import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwe, jweErrorHandler, uploadedFile } from '@jwe-transport/express-middleware';
import express from 'express';
import type { CaseName, ConformanceAdapter } from '../conformance/index.js';
import { sha256 } from '../conformance/wire.js';

/** Cases the Express middleware on main fails today (issue 18; fixed on the `express` branch). */
const KNOWN_FAILURES: CaseName[] = [
  'X-Encryption twice', // read as a plain request: 200
  'strict decrypted JSON', // duplicate members and __proto__ accepted: 200
  'route error is sealed and has a code', // the 500 body has no code
  'in-memory uploads up to the limit', // the base64 regular expression overflows the stack: 500 at 4 MiB
  'unknown kid after ciphertext refused early', // refused only after the whole body
  'spill capped by maxSpill', // no cap: the whole ciphertext is spilled
];

/** The existing Express middleware, unchanged, held to the same suite. */
export const expressAdapter: ConformanceAdapter = {
  name: 'Express 5 (express-middleware)',
  knownFailures: new Set(KNOWN_FAILURES),
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
      transport.upload({ dest: setup.upload.dest, limit: setup.upload.limit }),
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
