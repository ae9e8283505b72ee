// Express middleware throughput: 1 KiB encrypted JSON requests and encrypted answers through
// jwe(), against the same route with plain express.json(), measured with autocannon over
// 127.0.0.1. The server runs in a child process (this file with the argument "serve") so that
// the load generator does not share its event loop. Rounds alternate so machine noise hits both.
// Each row also gives cpu_ratio: the server's CPU time per request, ours / reference, which moves
// far less than requests per second when other processes load the machine.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { formatOps, report } from './lib.mjs';

const KEY = 'bench-express-16';
const KID = 'bench';
const ROUNDS = 5;
const SECONDS = 2;
const CONNECTIONS = 16;
const middlewarePackage = new URL('../../packages/express-middleware/package.json', import.meta.url);
const requireFromMiddleware = createRequire(middlewarePackage);
const codec = () => import(new URL('../../packages/codec/dist/index.node.js', import.meta.url).href);

/** A JSON object whose serialization is exactly `bytes` long. */
function jsonOfSize(bytes) {
  const value = { patient: 'Asha Verma', aadhaar_number: '123412341234', note: '' };
  value.note = 'x'.repeat(bytes - JSON.stringify(value).length);
  return value;
}

async function serve(flavour) {
  const express = requireFromMiddleware(flavour);
  const { jwe } = await import(
    new URL('../../packages/express-middleware/dist/index.js', import.meta.url).href
  );
  const app = express();
  app.post('/jwe', jwe({ keys: { [KID]: KEY } }), (req, res) => res.json(req.body));
  app.post('/plain', express.json(), (req, res) => res.json(req.body));
  // The same work written by hand with the codec, to separate the middleware's own cost from the crypto.
  const { decryptJson, encryptJson } = await codec();
  app.post('/by-hand', express.json(), async (req, res) => {
    const body = await decryptJson(req.body, KEY);
    res.set('X-Encryption', 'JWE').json(await encryptJson(body, KEY, { kid: KID }));
  });
  const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  // CPU time spent so far, so that the parent can charge each round's server work to its requests.
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
  });
  process.on('disconnect', () => process.exit(0));
}

function load(autocannon, url, body, headers, duration = SECONDS) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: 'POST', body, headers, connections: CONNECTIONS, duration },
      (error, result) => {
        if (error) reject(error);
        else if (result.non2xx > 0 || result.errors > 0)
          reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
        else resolve(result);
      },
    );
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function serverCpu(server) {
  server.send('cpu');
  const [{ cpu }] = await once(server, 'message');
  return cpu;
}

/** One timed round: requests per second, and the server's CPU microseconds per request. */
async function round(autocannon, server, url, body, headers) {
  const before = await serverCpu(server);
  const result = await load(autocannon, url, body, headers);
  const cpu = (await serverCpu(server)) - before;
  return { rps: result.requests.average, cpuPerRequest: cpu / result.requests.total };
}

async function measure(flavour) {
  const autocannon = requireFromMiddleware('autocannon');
  const { encryptJson, decryptJson } = await codec();
  const server = fork(fileURLToPath(import.meta.url), ['serve', flavour], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const [{ port }] = await once(server, 'message');
    const base = `http://127.0.0.1:${port}`;
    const value = jsonOfSize(1024);
    const plainBody = JSON.stringify(value);
    const envelopeBody = JSON.stringify(await encryptJson(value, KEY, { kid: KID }));
    const jweHeaders = { 'content-type': 'application/json', 'x-encryption': 'JWE' };
    const plainHeaders = { 'content-type': 'application/json' };

    // Both routes must really do their work before they are timed.
    const check = await fetch(`${base}/jwe`, { method: 'POST', headers: jweHeaders, body: envelopeBody });
    const echoed = await decryptJson(await check.json(), KEY);
    if (JSON.stringify(echoed) !== plainBody) throw new Error('the encrypted route did not echo the body');
    const plainCheck = await (
      await fetch(`${base}/plain`, { method: 'POST', headers: plainHeaders, body: plainBody })
    ).text();
    if (plainCheck !== plainBody) throw new Error('the plain route did not echo the body');

    // Warm-up (JIT, key cache, connection setup), not counted.
    await load(autocannon, `${base}/jwe`, envelopeBody, jweHeaders, 1);
    await load(autocannon, `${base}/plain`, plainBody, plainHeaders, 1);
    const ours = [];
    const reference = [];
    const byHand = [];
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await round(autocannon, server, `${base}/jwe`, envelopeBody, jweHeaders));
      reference.push(await round(autocannon, server, `${base}/plain`, plainBody, plainHeaders));
      byHand.push(await round(autocannon, server, `${base}/by-hand`, envelopeBody, plainHeaders));
    }
    return {
      ours: median(ours.map((r) => r.rps)),
      reference: median(reference.map((r) => r.rps)),
      oursCpu: median(ours.map((r) => r.cpuPerRequest)),
      referenceCpu: median(reference.map((r) => r.cpuPerRequest)),
      byHand: median(byHand.map((r) => r.rps)),
      byHandCpu: median(byHand.map((r) => r.cpuPerRequest)),
      envelopeBytes: envelopeBody.length,
    };
  } finally {
    server.disconnect();
    await once(server, 'exit');
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]);
} else {
  const rows = [];
  for (const [flavour, label] of [
    ['express', 'Express 5'],
    ['express4', 'Express 4'],
  ]) {
    const { ours, reference, oursCpu, referenceCpu, byHand, byHandCpu, envelopeBytes } =
      await measure(flavour);
    const reqPerSecond = (n) => formatOps(n).replace('ops/s', 'req/s');
    rows.push({
      case: `${label}: 1 KiB JSON request + answer, encrypted both ways (jwe()) vs plain (express.json())`,
      ours: reqPerSecond(ours),
      reference: reqPerSecond(reference),
      ratio: (ours / reference).toFixed(2),
      cpu_ratio: (oursCpu / referenceCpu).toFixed(2),
      target: '>= 0.8',
      notes:
        `server CPU per request ${oursCpu.toFixed(0)} vs ${referenceCpu.toFixed(0)} µs (cpu_ratio = ours / plain, lower is better); ` +
        `autocannon, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved ${SECONDS} s rounds after a 1 s warm-up; envelope ${envelopeBytes} B`,
    });
    rows.push({
      case: `${label}: jwe() vs express.json() + codec decryptJson/encryptJson by hand`,
      ours: reqPerSecond(ours),
      reference: reqPerSecond(byHand),
      ratio: (ours / byHand).toFixed(2),
      cpu_ratio: (oursCpu / byHandCpu).toFixed(2),
      target: '',
      notes: `server CPU per request ${oursCpu.toFixed(0)} vs ${byHandCpu.toFixed(0)} µs: the middleware's own cost; the rest of the gap to plain JSON is the crypto`,
    });
  }
  report('Express middleware (packages/express-middleware)', rows);
}
