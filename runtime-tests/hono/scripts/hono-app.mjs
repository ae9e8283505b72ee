// Runs under Deno or Bun: a Hono app with @jwe-transport/hono-middleware on 127.0.0.1, port 0.
// Its one argument is the keyring as JSON. It prints `{"port": N}` once it listens, and stops when
// its standard input closes (the test closes it).
import { jwe } from '@jwe-transport/hono-middleware';
import { Hono } from 'hono';

const runtime = globalThis.Deno ? 'deno' : 'bun';
const [keysJson] = globalThis.Deno ? Deno.args : Bun.argv.slice(2);

const app = new Hono();
app.use(jwe({ keys: JSON.parse(keysJson) }));
// Echoes what the handler saw, so the test can tell that the plaintext arrived.
app.post('/echo', async (c) => {
  const info = c.get('jwe');
  return c.json({ runtime, received: await c.req.json(), encrypted: info.encrypted, kid: info.kid ?? null });
});
app.post('/reject', (c) => c.json({ error: { type: 'validation.failed', runtime } }, 422));

function announce(port) {
  console.log(JSON.stringify({ port }));
}

if (runtime === 'deno') {
  const server = Deno.serve(
    { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => announce(port) },
    app.fetch,
  );
  for await (const _ of Deno.stdin.readable);
  await server.shutdown();
} else {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch });
  announce(server.port);
  for await (const _ of Bun.stdin.stream());
  await server.stop(true);
}
