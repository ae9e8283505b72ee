// ky with the JWE plugin vs plain ky: 1 KiB JSON round trips against the same local node:http
// server (jwe-echo-server.mjs), which runs in a child process so that its work does not share the client's event loop.
//   plain ky : the client sends the JSON; the server parses it and answers the same JSON.
//   plugin   : the client encrypts the JSON into an envelope (jwe() beforeRequest); the server
//              decrypts it with the codec, parses it, encrypts the same JSON and answers the
//              envelope with X-Encryption: JWE; the client decrypts it (in jwe()'s fetch).
//   by hand  : plain ky sends the envelope that the codec's encryptJson made and decrypts the answer
//              with decryptJson: the same work on the wire, without the plugin.
// All three then have the parsed JSON. Each measurement is a bounded burst (at most
// REQUESTS_PER_ROUND requests or ROUND_MS, whichever ends first) at CONCURRENCY requests in
// flight; rounds alternate between the two clients and the medians are compared. The server runs
// in a child process, so this process's CPU time (process.cpuUsage) is the client's alone.
import { alternate, PAYLOAD, SHARED_KEY, startEchoServer } from './jwe-echo-server.mjs';
import { formatOps, report } from './lib.mjs';
import { PROGRESS_KEY, progressRows } from './upload-progress.mjs';

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
  const { decryptJson, encryptJson } = await import(
    new URL('../../packages/codec/dist/index.node.js', import.meta.url).href
  );
  const server = await startEchoServer();
  try {
    const bytes = JSON.stringify(PAYLOAD).length;
    const plain = ky.create({ prefixUrl: server.url, retry: 0 });
    const encrypted = plain.extend(jwe({ key: SHARED_KEY, kid: 'bench' }));
    const byHand = async () => {
      const envelope = await encryptJson(PAYLOAD, SHARED_KEY, { kid: 'bench' });
      const answer = await plain.post('jwe', { json: envelope, headers: { 'x-encryption': 'JWE' } }).json();
      return decryptJson(answer, SHARED_KEY);
    };
    const check = async (call, name) => {
      const echoed = await call();
      if (echoed.note !== PAYLOAD.note) throw new Error(`the ${name} round trip did not echo the payload`);
    };
    await check(() => plain.post('plain', { json: PAYLOAD }).json(), 'plain');
    await check(() => encrypted.post('jwe', { json: PAYLOAD }).json(), 'jwe');
    await check(byHand, 'by-hand');

    const m = await alternate(
      server,
      {
        reference: () => plain.post('plain', { json: PAYLOAD }).json(),
        ours: () => encrypted.post('jwe', { json: PAYLOAD }).json(),
        byHand,
      },
      { rounds: ROUNDS, limits },
    );
    const { ours, reference, byHand: hand } = m;
    const micros = (value) => `${Math.round(value)} µs/req`;
    const reqs = (run) => formatOps(run.rate).replace('ops/s', 'req/s');
    const both = (run) => run.cpu + run.serverCpu;
    const cpuRatio = (ours.cpu / reference.cpu).toFixed(2);
    const rounds = `medians of ${ROUNDS} alternating rounds of <= ${REQUESTS_PER_ROUND} requests or ${ROUND_MS} ms`;
    // A sealed 64 MiB upload, progress on vs off: the cost of counting plaintext bytes for ky's
    // onUploadProgress (the sink answers plain JSON, so the client accepts plain answers).
    const uploads = ky
      .create({ retry: 0, timeout: false })
      .extend(jwe({ key: PROGRESS_KEY, plainResponses: 'accept' }));
    const progress = await progressRows('ky 1 + jwe()', (url, file, onUploadProgress) =>
      uploads.post(`${url}/upload`, { body: file, ...(onUploadProgress ? { onUploadProgress } : {}) }).json(),
    );
    report('ky plugin vs plain ky (1 KiB JSON round trips, local node:http server)', [
      {
        case: `${bytes} B JSON, ${CONCURRENCY} in flight: throughput`,
        ours: reqs(ours),
        reference: reqs(reference),
        ratio: (ours.rate / reference.rate).toFixed(2),
        cpu_ratio: cpuRatio,
        target: 'ratio >= 0.8, cpu_ratio <= 1.2',
        notes:
          'ours: ky 1 + jwe() (client seals and opens; server decrypts + encrypts with the codec); ' +
          'reference: plain ky, server parses + echoes JSON; cpu_ratio: client CPU per request ' +
          `(process.cpuUsage) ours / plain (${micros(ours.cpu)} vs ${micros(reference.cpu)}); ${rounds}`,
      },
      {
        case: `${bytes} B JSON: CPU per round trip (client + server)`,
        ours: micros(both(ours)),
        reference: micros(both(reference)),
        ratio: (both(reference) / both(ours)).toFixed(2),
        cpu_ratio: cpuRatio,
        target: '',
        notes:
          'ratio: reference CPU / ours, what the throughput ratio would be if CPU were the only limit; ' +
          'cpu_ratio: the client alone, as in the row above',
      },
      {
        case: `${bytes} B JSON: ky + jwe() vs plain ky + codec encryptJson/decryptJson by hand`,
        ours: reqs(ours),
        reference: reqs(hand),
        ratio: (ours.rate / hand.rate).toFixed(2),
        cpu_ratio: (ours.cpu / hand.cpu).toFixed(2),
        target: '',
        notes:
          `client CPU per request ${micros(ours.cpu)} vs ${micros(hand.cpu)} (cpu_ratio = ours / by hand): ` +
          "the plugin's own cost; the same envelopes on the wire, so the rest of the gap to plain ky is the crypto " +
          'and the larger bodies',
      },
      ...progress,
    ]);
  } finally {
    server.stop();
  }
}

await main();
