// Runs under Deno or Bun: the conformance suite's Hono app (the routes of
// test-support/src/server-conformance/adapter.ts) on 127.0.0.1, port 0. Its one argument is the
// ServerSetup as JSON. When `keys` is "parent", the keys come from a resolver function in the test
// process: each lookup is a `{"resolve": id, ...}` line on stdout, answered by a line on stdin.
// It prints `{"port": N}` once it listens; the test ends it with SIGTERM.
import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import { jweUpload } from '@jwe-transport/hono-middleware/upload';
import { Hono } from 'hono';

const isDeno = Boolean(globalThis.Deno);
const [setupJson] = isDeno ? Deno.args : Bun.argv.slice(2);
const setup = JSON.parse(setupJson);

const pending = new Map();
let nextLookup = 0;

function send(message) {
  console.log(JSON.stringify(message));
}

/** Asks the test process for the key of `kid`; answers what its resolver answered. */
function askParent(kid, header) {
  const id = nextLookup++;
  send({ resolve: id, kid: kid ?? null, header });
  return new Promise((resolve) => pending.set(id, resolve));
}

async function readAnswers() {
  const stdin = isDeno ? Deno.stdin.readable : Bun.stdin.stream();
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of stdin) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const { id, key, bytes } = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      pending.get(id)?.(bytes ? Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)) : (key ?? undefined));
      pending.delete(id);
      newline = buffered.indexOf('\n');
    }
  }
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const shared = {
  keys: setup.keys === 'parent' ? askParent : setup.keys,
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
  return c.json({ size: file.size, path: file.path });
});
app.post('/upload-memory', jweUpload({ ...shared, limit: setup.memoryUpload.limit }), async (c) => {
  const file = c.get('jweFile');
  return c.json({ size: file.size, sha256: await sha256Hex(file.buffer ?? new Uint8Array()) });
});

if (setup.keys === 'parent') readAnswers();
if (isDeno) {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => send({ port }) }, app.fetch);
} else {
  // Bun refuses bodies over 128 MiB by default; the middleware's own limits are the ones under test.
  const largest = Math.max(setup.limit, setup.upload.limit, setup.memoryUpload.limit);
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: app.fetch,
    maxRequestBodySize: 2 * largest,
    idleTimeout: 0,
  });
  send({ port: server.port });
}
