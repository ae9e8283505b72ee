// Hono middleware throughput on Node (@hono/node-server): 1 KiB encrypted JSON requests and
// sealed answers through @jwe-transport/hono-middleware, against a route of the same app that
// reads c.req.json() without encryption, and against one that opens and seals the envelope with
// the codec by hand (the middleware's own cost apart from the crypto), in the same run. The
// server runs in a child process. By hand reads c.req.text() as an application would; the
// middleware reads the Node request (c.env.incoming) itself, which spares the Web Request
// @hono/node-server builds to hand a body over, so it can cost less than by hand.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { announce, byHand, byHandRow, compareRoutes, frameworkRow, KEY, KID, manyRow } from './http-lib.mjs';
import { report } from './lib.mjs';

const packageJson = new URL('../../packages/hono-middleware/package.json', import.meta.url);

async function serve() {
  const resolve = (name) => createRequire(packageJson).resolve(name);
  const { Hono } = await import(resolve('hono'));
  const { serve: listen } = await import(resolve('@hono/node-server'));
  const { jwe } = await import(new URL('../../packages/hono-middleware/dist/index.js', import.meta.url).href);
  const app = new Hono();
  app.use('/jwe', jwe({ keys: { [KID]: KEY } }));
  app.post('/jwe', async (c) => c.json(await c.req.json()));
  app.post('/plain', async (c) => c.json(await c.req.json()));
  // The same work written by hand with the codec, to separate the middleware's own cost from the crypto.
  const { open, seal, headers } = await byHand();
  app.post('/by-hand', async (c) => {
    try {
      return c.json(await seal(await open(await c.req.text())), 200, headers);
    } catch {
      return c.body(null, 400);
    }
  });
  listen({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => announce(info.port));
}

if (process.argv[2] === 'serve') {
  await serve();
} else {
  const result = await compareRoutes(fileURLToPath(import.meta.url), packageJson, { many: true });
  report('Hono middleware (packages/hono-middleware)', [
    byHandRow('Hono 4 on @hono/node-server', 'app.use(jwe())', 'c.req.text()', result),
    manyRow('Hono 4 on @hono/node-server', 'app.use(jwe())', result),
    frameworkRow('Hono 4 on @hono/node-server', 'app.use(jwe())', 'c.req.json()', result),
  ]);
}
