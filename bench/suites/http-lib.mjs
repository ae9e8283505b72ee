// Shared by the framework suites (40-express, 41-fastify, 42-hono): a server in a child process
// (the suite file run with the argument "serve"), autocannon load over 127.0.0.1, and the server's
// own CPU time per request, read from the child with process.cpuUsage() around each round.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { formatOps } from './lib.mjs';

export const KEY = 'bench-servers-16';
export const KID = 'bench';
const ROUNDS = 5;
const SECONDS = 2;
const CONNECTIONS = 16;

export const codec = () => import(new URL('../../packages/codec/dist/index.node.js', import.meta.url).href);

/** A JSON object whose serialization is exactly `bytes` long. */
export function jsonOfSize(bytes) {
  const value = { patient: 'Asha Verma', aadhaar_number: '123412341234', note: '' };
  value.note = 'x'.repeat(bytes - JSON.stringify(value).length);
  return value;
}

/** In the child: reports the port, then answers each message with the CPU time used so far. */
export function announce(port) {
  process.send({ port });
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

async function round(autocannon, server, url, body, headers) {
  const before = await serverCpu(server);
  const result = await load(autocannon, url, body, headers);
  const cpu = (await serverCpu(server)) - before;
  return { rps: result.requests.average, cpuPerRequest: cpu / result.requests.total };
}

async function echoes(response, plainBody, decryptJson) {
  return JSON.stringify(await decryptJson(await response.json(), KEY)) === plainBody;
}

/**
 * Forks `suiteFile serve ...serveArgs`, checks that `/jwe` really decrypts and seals and `/plain`
 * really echoes, then times both in interleaved rounds. `packageJson` is where autocannon is
 * resolved. `byHandPath`, if given, is a route that receives the envelope as ordinary JSON and
 * seals its answer with the codec by hand; it is checked and timed alongside (`byHand` medians).
 */
export async function compareRoutes(suiteFile, packageJson, { serveArgs = [], byHandPath } = {}) {
  const autocannon = createRequire(packageJson)('autocannon');
  const { encryptJson, decryptJson } = await codec();
  const server = fork(suiteFile, ['serve', ...serveArgs], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const [{ port }] = await once(server, 'message');
    const base = `http://127.0.0.1:${port}`;
    const value = jsonOfSize(1024);
    const plainBody = JSON.stringify(value);
    const envelopeBody = JSON.stringify(await encryptJson(value, KEY, { kid: KID }));
    const jweHeaders = { 'content-type': 'application/json', 'x-encryption': 'JWE' };
    const plainHeaders = { 'content-type': 'application/json' };

    const check = await fetch(`${base}/jwe`, { method: 'POST', headers: jweHeaders, body: envelopeBody });
    if (check.headers.get('x-encryption') !== 'JWE')
      throw new Error('the encrypted route did not seal its answer');
    if (!(await echoes(check, plainBody, decryptJson)))
      throw new Error('the encrypted route did not echo the body');
    const plain = await fetch(`${base}/plain`, { method: 'POST', headers: plainHeaders, body: plainBody });
    if ((await plain.text()) !== plainBody) throw new Error('the plain route did not echo the body');
    if (byHandPath) {
      const answer = await fetch(`${base}${byHandPath}`, {
        method: 'POST',
        headers: plainHeaders,
        body: envelopeBody,
      });
      if (!(await echoes(answer, plainBody, decryptJson)))
        throw new Error(`${byHandPath} did not echo the body`);
    }

    await load(autocannon, `${base}/jwe`, envelopeBody, jweHeaders, 1);
    await load(autocannon, `${base}/plain`, plainBody, plainHeaders, 1);
    if (byHandPath) await load(autocannon, `${base}${byHandPath}`, envelopeBody, plainHeaders, 1);
    const ours = [];
    const reference = [];
    const byHand = [];
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await round(autocannon, server, `${base}/jwe`, envelopeBody, jweHeaders));
      reference.push(await round(autocannon, server, `${base}/plain`, plainBody, plainHeaders));
      if (byHandPath)
        byHand.push(await round(autocannon, server, `${base}${byHandPath}`, envelopeBody, plainHeaders));
    }
    const rps = (rounds) => median(rounds.map((r) => r.rps));
    const cpu = (rounds) => median(rounds.map((r) => r.cpuPerRequest));
    return {
      ours: rps(ours),
      reference: rps(reference),
      oursCpu: cpu(ours),
      referenceCpu: cpu(reference),
      byHand: byHandPath ? rps(byHand) : undefined,
      byHandCpu: byHandPath ? cpu(byHand) : undefined,
      envelopeBytes: envelopeBody.length,
    };
  } finally {
    server.disconnect();
    await once(server, 'exit');
  }
}

export const reqPerSecond = (n) => formatOps(n).replace('ops/s', 'req/s');

/** How every framework row was measured, for its notes. */
export const loadNotes = (envelopeBytes) =>
  `autocannon, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved ${SECONDS} s rounds after a 1 s warm-up; envelope ${envelopeBytes} B`;

/** The main row: requests/s and server CPU per request, ours against the framework's own JSON. */
export function frameworkRow(label, ours, plainParser, result) {
  const { ours: rps, reference, oursCpu, referenceCpu, envelopeBytes } = result;
  return {
    case: `${label}: 1 KiB JSON request + answer, encrypted both ways (${ours}) vs plain (${plainParser})`,
    ours: `${reqPerSecond(rps)}, ${oursCpu.toFixed(0)} µs CPU/req`,
    reference: `${reqPerSecond(reference)}, ${referenceCpu.toFixed(0)} µs CPU/req`,
    ratio: (rps / reference).toFixed(2),
    cpu_ratio: (oursCpu / referenceCpu).toFixed(2),
    target: 'ratio >= 0.8',
    notes: `ratio = req/s ours / plain; cpu_ratio = server CPU per request ours / plain (lower is better). ${loadNotes(envelopeBytes)}`,
  };
}

/**
 * The adapter's own cost: ours against a route that takes the envelope through the framework's
 * JSON parser and opens and seals it with the codec by hand (`compareRoutes` with `byHandPath`).
 * What is left of the gap to plain JSON is the crypto and the envelope's text.
 */
export function byHandRow(label, ours, byHandRoute, result) {
  const { ours: rps, oursCpu, byHand, byHandCpu } = result;
  return {
    case: `${label}: ${ours} vs ${byHandRoute} + codec decryptJson/encryptJson by hand`,
    ours: `${reqPerSecond(rps)}, ${oursCpu.toFixed(0)} µs CPU/req`,
    reference: `${reqPerSecond(byHand)}, ${byHandCpu.toFixed(0)} µs CPU/req`,
    ratio: (rps / byHand).toFixed(2),
    cpu_ratio: (oursCpu / byHandCpu).toFixed(2),
    target: '',
    notes:
      "the adapter's own cost over doing the same crypto by hand (cpu_ratio = ours / by hand, lower is better); " +
      'the by-hand route skips the strict plaintext check and the Vary header',
  };
}
