// Web-standard handler throughput on Node: 1 KiB encrypted JSON requests and sealed answers
// through server-core's withJwe(), served the way its README recommends on Node
// (@hono/node-server's serve({ fetch })), against a plain route and a route that opens and seals
// the envelope with the codec by hand, all behind the same fetch bridge. The server runs in a
// child process.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { announce, byHand, byHandRow, compareRoutes, floorRow, frameworkRow, KEY, KID } from './http-lib.mjs';
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
  const { open, openBytes, seal, sealBytes, headers } = await byHand();
  routes['/by-hand'] = async (request) => {
    try {
      return Response.json(await seal(await open(await request.text())), { headers });
    } catch {
      return new Response(null, { status: 400 });
    }
  };
  // The floor of any wrapper around a (request) => Response handler: the handler is given a new
  // Request carrying the plaintext (its json() handing on the value already parsed, as withJwe's
  // does), and its Response is read back to be sealed into another.
  routes['/floor'] = async (request) => {
    let opened;
    try {
      opened = await openBytes(await request.text());
    } catch {
      return new Response(null, { status: 400 });
    }
    const inner = new Request(request.url, {
      method: request.method,
      headers: { 'content-type': 'application/json' },
      body: opened.plaintext,
      signal: request.signal,
    });
    Object.defineProperty(inner, 'json', { value: async () => opened.value });
    const answer = await echo(inner);
    const envelope = await sealBytes(new Uint8Array(await answer.arrayBuffer()));
    return Response.json(envelope, { status: answer.status, headers });
  };
  const fetch = (request) =>
    routes[new URL(request.url).pathname]?.(request) ?? new Response(null, { status: 404 });
  listen({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => announce(info.port));
}

const WRAPPER_FLOOR = {
  step: 'a new Request and a re-read Response',
  why:
    'the by-hand work written as a wrapper around the same echo handler: it hands the handler a new ' +
    'Request carrying the plaintext and seals the bytes of the Response the handler returns, ' +
    'the two steps no wrapper of a (request) => Response handler can skip',
};

if (process.argv[2] === 'serve') {
  await serve();
} else {
  const result = await compareRoutes(fileURLToPath(import.meta.url), loadPackage, { floor: true });
  report('Web handler (packages/server-core withJwe on @hono/node-server)', [
    byHandRow('withJwe on @hono/node-server', 'withJwe(handler)', 'request.text()', result),
    floorRow('withJwe on @hono/node-server', 'withJwe(handler)', WRAPPER_FLOOR, result),
    frameworkRow('withJwe on @hono/node-server', 'withJwe(handler)', 'request.json()', result),
  ]);
}
