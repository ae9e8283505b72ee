import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import { jweUpload } from '@jwe-transport/hono-middleware/upload';
import { type ConformanceAdapter, runConformance } from '@jwe-transport/test-support/server-conformance';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { sha256 } from '@jwe-transport/test-support/server-conformance/wire';
import { Hono } from 'hono';

/**
 * The suite's app, served by @hono/node-server. `viaWebRequest`: the app sees only the Web
 * `Request` (no `c.env.incoming`), as on a runtime that hands Hono nothing else, so the middleware
 * reads `c.req.raw` instead of the Node request.
 */
const honoAdapter = (name: string, viaWebRequest: boolean): ConformanceAdapter => ({
  name,
  start(setup) {
    const shared = {
      keys: setup.keys,
      ...(setup.missingProtected ? { missingProtected: setup.missingProtected } : {}),
    };
    const app = new Hono();
    app.use(jwe({ ...shared, limit: setup.limit }));
    app.onError(jweErrorHandler({ onError: () => {} }));
    app.post('/echo', async (c) => {
      const info = c.get('jwe');
      return c.json({ body: await c.req.json(), encrypted: info.encrypted, kid: info.kid });
    });
    app.get('/hello', (c) => c.json({ hello: 'world' }));
    app.post('/fail', () => {
      throw new Error('internal detail');
    });
    app.post('/upload', jweUpload({ ...shared, ...setup.upload }), (c) => {
      const file = c.get('jweFile');
      return c.json({
        size: file.size,
        path: file.path,
        mimetype: file.mimetype,
        originalname: file.originalname ?? null,
      });
    });
    app.post('/upload-memory', jweUpload({ ...shared, limit: setup.memoryUpload.limit }), (c) => {
      const file = c.get('jweFile');
      return c.json({
        size: file.size,
        sha256: sha256(file.buffer ?? new Uint8Array()),
        mimetype: file.mimetype,
      });
    });
    return serveFetch(viaWebRequest ? (request) => app.fetch(request) : app.fetch);
  },
});

runConformance(honoAdapter('Hono 4 on @hono/node-server', false));
runConformance(honoAdapter('Hono 4 on @hono/node-server, the Web Request only', true));
