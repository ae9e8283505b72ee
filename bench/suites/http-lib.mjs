// Shared by the server suites (40-express, 41-fastify, 42-hono, 43-web-handler): a server in a
// child process (the suite file run with the argument "serve"), autocannon load over 127.0.0.1,
// and the server's own CPU time per request, read from the child with process.cpuUsage() around
// each round. The many-connections rows also sample the child's RSS during each round.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { alternating, formatOps, median, pairedRatio } from './lib.mjs';

export const KEY = 'bench-servers-16';
export const KID = 'bench';
const ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS ?? 9);
const SECONDS = 2;
const CONNECTIONS = 16;
const MANY = 256;
const MANY_ROUNDS = Number(process.env.BENCH_MANY_ROUNDS ?? 11);
const MANY_SECONDS = 10;
/** The adapters' target: CPU per request (and p99 at many connections) within this of by hand. */
const LIMIT = 1.1;

export const codec = () => import(new URL('../../packages/codec/dist/index.node.js', import.meta.url).href);

/**
 * In the child: what a route written by hand does per request that the adapters also do. The
 * envelope reaches the codec as the request's text (the codec parses it strictly, refusing a
 * duplicated member, as it does for the adapters), the decrypted body goes through server-core's own strict parser (UTF-8, JSON, depth, duplicate and
 * `__proto__`/`constructor` members), and the answer carries the same headers as the adapter's:
 * `X-Encryption: JWE`, `Vary: X-Encryption` and the JSON content type.
 */
export async function byHand() {
  const { decrypt, encrypt, encryptJson } = await codec();
  const { JweServer } = await import(
    new URL('../../packages/server-core/dist/index.js', import.meta.url).href
  );
  // The engine's own strict parser (strictJson and maxDepth at their defaults).
  const parser = new JweServer({ keys: { [KID]: KEY } });
  const parsePlaintext = (plaintext) => parser.parsePlaintext(plaintext);
  return {
    /** The envelope (text or parsed object) to the checked plaintext value. */
    open: async (envelope) => parsePlaintext(await decrypt(envelope, KEY)).value,
    /** `open` that also gives the plaintext bytes. */
    openBytes: async (envelope) => {
      const plaintext = await decrypt(envelope, KEY);
      return { plaintext, value: parsePlaintext(plaintext).value };
    },
    /** Bytes to the envelope object. */
    sealBytes: (bytes) => encrypt(bytes, KEY, { kid: KID }),
    seal: (value) => encryptJson(value, KEY, { kid: KID }),
    headers: { 'X-Encryption': 'JWE', Vary: 'X-Encryption' },
  };
}

/** A JSON object whose serialization is exactly `bytes` long. */
export function jsonOfSize(bytes) {
  const value = { patient: 'Asha Verma', aadhaar_number: '123412341234', note: '' };
  value.note = 'x'.repeat(bytes - JSON.stringify(value).length);
  return value;
}

/**
 * In the child: reports the port, then answers the parent's messages: `cpu` with the CPU time
 * used so far, `rss-start` by sampling the resident set size until `rss-peak`, which answers
 * with the highest sample (so each round has its own peak, not the process's high-water mark).
 */
export function announce(port) {
  process.send({ port });
  let peak = 0;
  let sampler;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  process.on('message', (message) => {
    if (message === 'rss-start') {
      peak = 0;
      sample();
      sampler = setInterval(sample, 25);
      process.send({ ok: true });
    } else if (message === 'rss-peak') {
      clearInterval(sampler);
      sample();
      process.send({ rss: peak });
    } else {
      const { user, system } = process.cpuUsage();
      process.send({ cpu: user + system });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

function load(autocannon, url, body, headers, duration = SECONDS, connections = CONNECTIONS) {
  // With 256 connections on a loaded machine a few requests may pass autocannon's timeout: they
  // are counted and reported (`errors`), not fatal; any non-2xx answer is.
  const many = connections > CONNECTIONS;
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: 'POST', body, headers, connections, duration, timeout: 30 },
      (error, result) => {
        if (error) reject(error);
        else if (result.non2xx > 0 || (!many && result.errors > 0))
          reject(
            new Error(
              `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
            ),
          );
        else resolve(result);
      },
    );
  });
}

async function ask(server, message) {
  server.send(message);
  const [answer] = await once(server, 'message');
  return answer;
}

async function round(autocannon, server, { url, body, headers }) {
  const { cpu: before } = await ask(server, 'cpu');
  const result = await load(autocannon, url, body, headers);
  const { cpu: after } = await ask(server, 'cpu');
  return { rps: result.requests.average, cpuPerRequest: (after - before) / result.requests.total };
}

async function manyRound(autocannon, server, { url, body, headers }) {
  await ask(server, 'rss-start');
  const result = await load(autocannon, url, body, headers, MANY_SECONDS, MANY);
  const { rss } = await ask(server, 'rss-peak');
  return { rps: result.requests.average, p99: result.latency.p99, rss, errors: result.errors };
}

async function echoes(response, plainBody, decryptJson) {
  return JSON.stringify(await decryptJson(await response.json(), KEY)) === plainBody;
}

/**
 * Forks `suiteFile serve ...serveArgs`, checks that `/jwe` really decrypts and seals, `/plain`
 * really echoes and `/by-hand` (the envelope opened and sealed with the codec by hand, doing
 * what the adapter does per request) echoes with the adapter's headers, then times the three in
 * interleaved rounds. With `many`, it then loads `/jwe` and `/by-hand` with 256 connections in
 * interleaved 10 s rounds. `packageJson` is where autocannon is resolved.
 */
export async function compareRoutes(
  suiteFile,
  packageJson,
  { serveArgs = [], many = false, floor = false } = {},
) {
  const autocannon = createRequire(packageJson)('autocannon');
  const { encrypt, encryptJson, decryptJson } = await codec();
  const server = fork(suiteFile, ['serve', ...serveArgs], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const [{ port }] = await once(server, 'message');
    const base = `http://127.0.0.1:${port}`;
    const value = jsonOfSize(1024);
    const plainBody = JSON.stringify(value);
    const envelopeBody = JSON.stringify(await encryptJson(value, KEY, { kid: KID }));
    const plainHeaders = { 'content-type': 'application/json' };
    const routes = {
      plain: { url: `${base}/plain`, body: plainBody, headers: plainHeaders },
      byHand: { url: `${base}/by-hand`, body: envelopeBody, headers: plainHeaders },
      ours: { url: `${base}/jwe`, body: envelopeBody, headers: { ...plainHeaders, 'x-encryption': 'JWE' } },
    };
    // A route that does by hand what an adapter of its kind cannot skip (see floorRow).
    if (floor) routes.floor = { url: `${base}/floor`, body: envelopeBody, headers: plainHeaders };
    const sealing = Object.keys(routes).filter((name) => name !== 'plain');

    for (const name of sealing) {
      const { url, body, headers } = routes[name];
      const answer = await fetch(url, { method: 'POST', headers, body });
      if (answer.headers.get('x-encryption') !== 'JWE') throw new Error(`${url} did not seal its answer`);
      if (!/x-encryption/i.test(answer.headers.get('vary') ?? '')) throw new Error(`${url} set no Vary`);
      if (!/^application\/json/.test(answer.headers.get('content-type') ?? ''))
        throw new Error(`${url} answered without the JSON content type`);
      if (!(await echoes(answer, plainBody, decryptJson))) throw new Error(`${url} did not echo the body`);
    }
    const plain = await fetch(routes.plain.url, { method: 'POST', headers: plainHeaders, body: plainBody });
    if ((await plain.text()) !== plainBody) throw new Error('the plain route did not echo the body');
    // The by-hand route must refuse what the adapter refuses.
    const twice = await encrypt('{"a":1,"a":2}', KEY, { kid: KID });
    for (const name of sealing) {
      const { url, headers } = routes[name];
      const refused = await fetch(url, { method: 'POST', headers, body: JSON.stringify(twice) });
      await refused.arrayBuffer();
      if (refused.status < 400) throw new Error(`${url} accepted a member named twice`);
    }

    for (const route of Object.values(routes))
      await load(autocannon, route.url, route.body, route.headers, 1);
    const timed = Object.fromEntries(Object.keys(routes).map((name) => [name, []]));
    // The plain route, which only informs, opens every round; the routes that a ratio pairs follow
    // it back to back (ours between by hand and the floor), so each pair shares the machine's
    // state of the moment, and their order is reversed every other round.
    for (let i = 0; i < ROUNDS; i++) {
      for (const name of ['plain', ...alternating(sealing, i)])
        timed[name].push(await round(autocannon, server, routes[name]));
    }
    const result = {};
    for (const [name, rounds] of Object.entries(timed)) {
      result[name] = {
        rps: median(rounds.map((r) => r.rps)),
        cpu: median(rounds.map((r) => r.cpuPerRequest)),
      };
    }
    const cpuOf = (name) => timed[name].map((r) => r.cpuPerRequest);
    const paired = (a, b) => pairedRatio(cpuOf(a), cpuOf(b));
    result.cpuRatio = paired('ours', 'byHand');
    if (floor) {
      result.floorRatio = paired('ours', 'floor');
      result.floorCost = paired('floor', 'byHand');
    }
    result.envelopeBytes = envelopeBody.length;

    if (many) {
      for (const name of ['ours', 'byHand']) {
        const { url, body, headers } = routes[name];
        await load(autocannon, url, body, headers, 2, MANY);
      }
      const rounds = { ours: [], byHand: [] };
      for (let i = 0; i < MANY_ROUNDS; i++) {
        for (const name of alternating(Object.keys(rounds), i))
          rounds[name].push(await manyRound(autocannon, server, routes[name]));
      }
      result.many = {};
      for (const [name, list] of Object.entries(rounds)) {
        result.many[name] = {
          rps: median(list.map((r) => r.rps)),
          p99: median(list.map((r) => r.p99)),
          rss: median(list.map((r) => r.rss)),
          errors: list.reduce((sum, r) => sum + r.errors, 0),
        };
      }
      // Paired like the CPU ratio: a round and its neighbour share the machine's state of the moment.
      result.many.p99Ratio = pairedRatio(
        rounds.ours.map((r) => r.p99),
        rounds.byHand.map((r) => r.p99),
      );
    }
    return result;
  } finally {
    server.disconnect();
    await once(server, 'exit');
  }
}

export const reqPerSecond = (n) => formatOps(n).replace('ops/s', 'req/s');
const perRequest = ({ rps, cpu }) => `${reqPerSecond(rps)}, ${cpu.toFixed(0)} µs CPU/req`;

/** How every framework row was measured, for its notes. */
export const loadNotes = (envelopeBytes) =>
  `autocannon, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved ${SECONDS} s rounds (the plain route first, then the paired routes back to back, their order reversed every other round) after a 1 s warm-up; envelope ${envelopeBytes} B`;

/** Information, no target: requests/s and server CPU per request, ours against the framework's own JSON. */
export function frameworkRow(label, ours, plainParser, result) {
  return {
    case: `${label}: 1 KiB JSON request + answer, encrypted both ways (${ours}) vs plain (${plainParser})`,
    ours: perRequest(result.ours),
    reference: perRequest(result.plain),
    ratio: (result.ours.rps / result.plain.rps).toFixed(2),
    cpu_ratio: (result.ours.cpu / result.plain.cpu).toFixed(2),
    target: '',
    notes: `information (the crypto and the envelope's text are the gap); ratio = req/s ours / plain; cpu_ratio = server CPU per request ours / plain. ${loadNotes(result.envelopeBytes)}`,
  };
}

/**
 * The adapter's own cost, with a target: ours against the same framework with the codec called
 * by hand, doing the same per-request work (strict plaintext parse, X-Encryption, Vary, JSON type).
 */
export function byHandRow(label, ours, byHandRoute, result) {
  return {
    case: `${label}: ${ours} vs ${byHandRoute} + codec by hand (strict parse, X-Encryption, Vary)`,
    ours: perRequest(result.ours),
    reference: perRequest(result.byHand),
    ratio: (result.ours.rps / result.byHand.rps).toFixed(2),
    cpu_ratio: result.cpuRatio.toFixed(2),
    // With a floor measured, the adapter is judged against whichever of the two it can be held to.
    target:
      result.floorRatio === undefined
        ? `CPU ≤ ${LIMIT.toFixed(2)}x by hand`
        : `CPU ≤ ${LIMIT.toFixed(2)}x by hand, or ≤ ${LIMIT.toFixed(2)}x its floor (next row)`,
    met: result.cpuRatio <= LIMIT || (result.floorRatio !== undefined && result.floorRatio <= LIMIT),
    notes: `cpu_ratio = server CPU per request ours / by hand, median of the per-round ratios (lower is better). ${loadNotes(result.envelopeBytes)}`,
  };
}

/**
 * The adapter against its floor: by hand plus the steps (`step`, and `why` they cannot be
 * skipped) that any adapter of its kind must take, measured in the same rounds.
 */
export function floorRow(label, ours, { step, why }, result) {
  return {
    case: `${label}: ${ours} vs its floor (by hand + ${step})`,
    ours: perRequest(result.ours),
    reference: perRequest(result.floor),
    ratio: (result.ours.rps / result.floor.rps).toFixed(2),
    cpu_ratio: result.floorRatio.toFixed(2),
    target: `CPU ≤ ${LIMIT.toFixed(2)}x floor`,
    met: result.floorRatio <= LIMIT,
    notes: `floor: ${why}; the floor costs ${result.floorCost.toFixed(2)}x by hand (server CPU, median of the per-round ratios). ${loadNotes(result.envelopeBytes)}`,
  };
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const manyCell = ({ rps, p99, rss, errors }) =>
  `${reqPerSecond(rps)}, p99 ${p99} ms, peak RSS ${mib(rss)}${errors ? `, ${errors} timeouts` : ''}`;

/** 256 keep-alive connections: p99 latency of ours against the by-hand route, with throughput and RSS. */
export function manyRow(label, ours, result) {
  const { ours: o, byHand: h, p99Ratio: ratio } = result.many;
  return {
    case: `${label}: ${ours} vs codec by hand, ${MANY} concurrent keep-alive connections`,
    ours: manyCell(o),
    reference: manyCell(h),
    ratio: (o.rps / h.rps).toFixed(2),
    cpu_ratio: '',
    target: `p99 ≤ ${LIMIT.toFixed(2)}x by hand`,
    met: ratio <= LIMIT,
    notes: `p99 ratio ${ratio.toFixed(2)} (ours / by hand; autocannon latency.p99, median of the per-round ratios over ${MANY_ROUNDS} interleaved ${MANY_SECONDS} s rounds (order reversed every other round) after a 2 s warm-up; the p99 cells are the medians of the rounds); ratio = req/s ours / by hand; peak RSS sampled in the server every 25 ms within each round, median over rounds`,
  };
}
