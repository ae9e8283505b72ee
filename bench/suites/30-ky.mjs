// ky with the JWE plugin vs plain ky: 1 KiB JSON round trips against the same local node:http
// server (jwe-echo-server.mjs), which runs in a child process so that its work does not share the client's event loop.
//   plain ky : the client sends the JSON; the server parses it and answers the same JSON.
//   plugin   : the client encrypts the JSON into an envelope (jwe() beforeRequest); the server
//              decrypts it with the codec, parses it, encrypts the same JSON and answers the
//              envelope with X-Encryption: JWE; the client decrypts it (jwe() afterResponse).
// Both sides then call `.json()` on the response. Each measurement is a bounded burst (at most
// REQUESTS_PER_ROUND requests or ROUND_MS, whichever ends first) at CONCURRENCY requests in
// flight; rounds alternate between the two clients and the medians are compared. The server runs
// in a child process, so this process's CPU time (process.cpuUsage) is the client's alone.
import { burst, PAYLOAD, SHARED_KEY, startEchoServer } from './jwe-echo-server.mjs';
import { formatOps, report } from './lib.mjs';

const CONCURRENCY = 24;
const REQUESTS_PER_ROUND = 3000;
const ROUND_MS = 2000;
const ROUNDS = 5;
const limits = { concurrency: CONCURRENCY, requests: REQUESTS_PER_ROUND, ms: ROUND_MS };

async function main() {
  const { default: ky } = await import(
    new URL('../../packages/ky-plugin/node_modules/ky/distribution/index.js', import.meta.url).href
  );
  const { jwe } = await import(new URL('../../packages/ky-plugin/dist/index.js', import.meta.url).href);
  const server = await startEchoServer();
  try {
    const bytes = JSON.stringify(PAYLOAD).length;
    const plain = ky.create({ prefixUrl: server.url, retry: 0 });
    const encrypted = plain.extend(jwe({ key: SHARED_KEY, kid: 'bench' }));
    const check = async (client, path) => {
      const echoed = await client.post(path, { json: PAYLOAD }).json();
      if (echoed.note !== PAYLOAD.note) throw new Error(`the ${path} round trip did not echo the payload`);
    };
    await check(plain, 'plain');
    await check(encrypted, 'jwe');

    const ours = [];
    const reference = [];
    await burst(() => check(plain, 'plain'), server, limits); // warm-up for both paths
    await burst(() => check(encrypted, 'jwe'), server, limits);
    for (let round = 0; round < ROUNDS; round++) {
      reference.push(await burst(() => plain.post('plain', { json: PAYLOAD }).json(), server, limits));
      ours.push(await burst(() => encrypted.post('jwe', { json: PAYLOAD }).json(), server, limits));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const rate = (runs) => median(runs.map((run) => run.rate));
    const clientCpu = (runs) => median(runs.map((run) => run.cpu));
    const cpu = (runs) => median(runs.map((run) => run.cpu + run.serverCpu));
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

await main();
