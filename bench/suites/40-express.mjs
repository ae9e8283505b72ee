// Express middleware throughput: 1 KiB encrypted JSON requests and encrypted answers through
// jwe(), against the same route with plain express.json(), measured with autocannon over
// 127.0.0.1. The server runs in a child process (this file with the argument "serve") so that
// the load generator does not share its event loop. Rounds alternate so machine noise hits both.
// Each row also gives cpu_ratio: the server's CPU time per request, ours / reference, which moves
// far less than requests per second when other processes load the machine.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { announce, byHand, byHandRow, compareRoutes, frameworkRow, KEY, KID, manyRow } from './http-lib.mjs';
import { report } from './lib.mjs';

const packageJson = new URL('../../packages/express-middleware/package.json', import.meta.url);

async function serve(flavour) {
  const express = createRequire(packageJson)(flavour);
  const { jwe } = await import(
    new URL('../../packages/express-middleware/dist/index.js', import.meta.url).href
  );
  const app = express();
  app.post('/jwe', jwe({ keys: { [KID]: KEY } }), (req, res) => res.json(req.body));
  app.post('/plain', express.json(), (req, res) => res.json(req.body));
  // The same work written by hand with the codec, to separate the middleware's own cost from the
  // crypto. Express 4 does not catch a rejected promise, so the route answers its own refusals.
  // The envelope reaches the codec as text, as it does in the middleware: the codec's own parse
  // of it is strict (a duplicated member is refused), which express.json() is not.
  const { open, seal, headers } = await byHand();
  app.post('/by-hand', express.text({ type: 'application/json' }), async (req, res) => {
    try {
      res.set(headers).json(await seal(await open(req.body)));
    } catch {
      res.status(400).end();
    }
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server.address().port));
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]);
} else {
  const rows = [];
  for (const [flavour, label] of [
    ['express', 'Express 5'],
    ['express4', 'Express 4'],
  ]) {
    const result = await compareRoutes(fileURLToPath(import.meta.url), packageJson, {
      serveArgs: [flavour],
      many: flavour === 'express',
    });
    rows.push(byHandRow(label, 'jwe()', 'express.text()', result));
    if (result.many) rows.push(manyRow(label, 'jwe()', result));
    rows.push(frameworkRow(label, 'jwe()', 'express.json()', result));
  }
  report('Express middleware (packages/express-middleware)', rows);
}
