// ky with the JWE plugin vs plain ky: 1 KiB JSON round trips against the same local node:http
// server, which runs in a child process so that its work does not share the client's event loop.
//   plain ky : the client sends the JSON; the server parses it and answers the same JSON.
//   plugin   : the client encrypts the JSON into an envelope (jwe() beforeRequest); the server
//              decrypts it with the codec, parses it, encrypts the same JSON and answers the
//              envelope with X-Encryption: JWE; the client decrypts it (jwe() afterResponse).
// Both sides then call `.json()` on the response. Each measurement is a bounded burst (at most
// REQUESTS_PER_ROUND requests or ROUND_MS, whichever ends first) at CONCURRENCY requests in
// flight; rounds alternate between the two clients and the medians are compared. The server runs
// in a child process, so this process's CPU time (process.cpuUsage) is the client's alone.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { formatOps, report } from './lib.mjs';

const SHARED = 'k3y-0f-16-bytes!';
const CONCURRENCY = 24;
const REQUESTS_PER_ROUND = 3000;
const ROUND_MS = 2000;
const ROUNDS = 5;
const codecUrl = new URL('../../packages/codec/dist/index.node.js', import.meta.url);

async function serve() {
  const codec = await import(codecUrl.href);
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      if (request.url === '/plain') {
        const value = JSON.parse(body.toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        return;
      }
      try {
        const value = await codec.decryptJson(body, SHARED);
        const envelope = await codec.encryptJson(value, SHARED);
        response
          .writeHead(200, { 'content-type': 'application/json', 'x-encryption': 'JWE' })
          .end(JSON.stringify(envelope));
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
  // The parent asks for this process's CPU time to charge each client its server-side cost.
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send(user + system);
  });
  process.on('disconnect', () => process.exit(0));
}

async function startServer() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--server'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const cpu = () =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send('cpu');
    });
  return { url: `http://127.0.0.1:${port}`, cpu, stop: () => child.kill() };
}

/**
 * Requests per second of `call`, with CONCURRENCY in flight, bounded by count and by time, and
 * the CPU microseconds per request spent by this process (the client) and by the server.
 */
async function burst(call, server) {
  let started = 0;
  let done = 0;
  const serverBefore = await server.cpu();
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + ROUND_MS;
  const worker = async () => {
    while (started < REQUESTS_PER_ROUND && performance.now() < deadline) {
      started++;
      await call();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverMicros = (await server.cpu()) - serverBefore;
  const clientMicros = client.user + client.system;
  return { rate: done / seconds, clientCpu: clientMicros / done, cpu: (clientMicros + serverMicros) / done };
}

async function main() {
  const { default: ky } = await import(
    new URL('../../packages/ky-plugin/node_modules/ky/distribution/index.js', import.meta.url).href
  );
  const { jwe } = await import(new URL('../../packages/ky-plugin/dist/index.js', import.meta.url).href);
  const server = await startServer();
  try {
    const payload = { aadhaar_number: '123412341234', note: 'x'.repeat(980) };
    const bytes = JSON.stringify(payload).length;
    const plain = ky.create({ prefixUrl: server.url, retry: 0 });
    const encrypted = plain.extend(jwe({ key: SHARED, kid: 'bench' }));
    const check = async (client, path) => {
      const echoed = await client.post(path, { json: payload }).json();
      if (echoed.note !== payload.note) throw new Error(`the ${path} round trip did not echo the payload`);
    };
    await check(plain, 'plain');
    await check(encrypted, 'jwe');

    const ours = [];
    const reference = [];
    await burst(() => check(plain, 'plain'), server); // warm-up for both paths
    await burst(() => check(encrypted, 'jwe'), server);
    for (let round = 0; round < ROUNDS; round++) {
      reference.push(await burst(() => plain.post('plain', { json: payload }).json(), server));
      ours.push(await burst(() => encrypted.post('jwe', { json: payload }).json(), server));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const rate = (runs) => median(runs.map((run) => run.rate));
    const clientCpu = (runs) => median(runs.map((run) => run.clientCpu));
    const cpu = (runs) => median(runs.map((run) => run.cpu));
    const micros = (value) => `${Math.round(value)} µs/req`;
    const cpuRatio = (clientCpu(ours) / clientCpu(reference)).toFixed(2);
    const rounds = `medians of ${ROUNDS} alternating rounds of <= ${REQUESTS_PER_ROUND} requests or ${ROUND_MS} ms`;
    report('ky plugin vs plain ky (1 KiB JSON round trips, local node:http server)', [
      {
        case: `${bytes} B JSON, ${CONCURRENCY} in flight: throughput`,
        ours: formatOps(rate(ours)).replace('ops/s', 'req/s'),
        reference: formatOps(rate(reference)).replace('ops/s', 'req/s'),
        ratio: (rate(ours) / rate(reference)).toFixed(2),
        cpu_ratio: cpuRatio,
        target: 'ratio >= 0.8, cpu_ratio <= 1.2',
        notes:
          'ours: ky 1 + jwe() (client seals and opens; server decrypts + encrypts with the codec); ' +
          'reference: plain ky, server parses + echoes JSON; cpu_ratio: client CPU per request ' +
          `(process.cpuUsage) ours / plain (${micros(clientCpu(ours))} vs ${micros(clientCpu(reference))}); ${rounds}`,
      },
      {
        case: `${bytes} B JSON: CPU per round trip (client + server)`,
        ours: micros(cpu(ours)),
        reference: micros(cpu(reference)),
        ratio: (cpu(reference) / cpu(ours)).toFixed(2),
        cpu_ratio: cpuRatio,
        target: '',
        notes:
          'ratio: reference CPU / ours, what the throughput ratio would be if CPU were the only limit; ' +
          'cpu_ratio: the client alone, as in the row above',
      },
    ]);
  } finally {
    server.stop();
  }
}

if (process.argv.includes('--server')) await serve();
else await main();
