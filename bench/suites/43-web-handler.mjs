// Web-standard handler throughput on Node: 1 KiB encrypted JSON requests and sealed answers
// through server-core's withJwe(), served the way its README recommends on Node
// (@hono/node-server's serve({ fetch })), against a plain route and a route that opens and seals
// the envelope with the codec by hand, all behind the same fetch bridge. The server runs in a
// child process.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { announce, byHand, byHandRow, compareRoutes, frameworkRow, KEY, KID } from './http-lib.mjs';
import { report } from './lib.mjs';

const serverCore = new URL('../../packages/server-core/package.json', import.meta.url);
// autocannon is a dev dependency of the adapters, not of server-core.
const loadPackage = new URL('../../packages/hono-middleware/package.json', import.meta.url);

async function serve() {
  const { serve: listen } = await import(createRequire(serverCore).resolve('@hono/node-server'));
  const { withJwe } = await import(new URL('../../packages/server-core/dist/index.js', import.meta.url).href);
  const echo = async (request) => Response.json(await request.json());
  const routes = {
    '/jwe': withJwe(echo, { keys: { [KID]: KEY } }),
    '/plain': echo,
  };
  // The same work written by hand with the codec, to separate the handler's own cost from the crypto.
  const { open, seal, headers } = await byHand();
  routes['/by-hand'] = async (request) => {
    try {
      return Response.json(await seal(await open(await request.text())), { headers });
    } catch {
      return new Response(null, { status: 400 });
    }
  };
  const fetch = (request) =>
    routes[new URL(request.url).pathname]?.(request) ?? new Response(null, { status: 404 });
  listen({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => announce(info.port));
}

if (process.argv[2] === 'serve') {
  await serve();
} else {
  const result = await compareRoutes(fileURLToPath(import.meta.url), loadPackage);
  report('Web handler (packages/server-core withJwe on @hono/node-server)', [
    byHandRow('withJwe on @hono/node-server', 'withJwe(handler)', 'request.text()', result),
    frameworkRow('withJwe on @hono/node-server', 'withJwe(handler)', 'request.json()', result),
  ]);
}
