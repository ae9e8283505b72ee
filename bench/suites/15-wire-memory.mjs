// The memory of the one-shot wire path, as real traffic takes it: a sealed envelope is text (a
// client serialises it, a server receives it). Each measurement runs in a fresh process and
// reads the kernel's high-water mark of RSS (VmHWM, reset through /proc/self/clear_refs) over the
// RSS once the file is allocated and every code path has run once (after two full GCs).
//
// - codec: a 16 and a 64 MiB file sealed to a string and opened from that string, in one process;
//   npm jose doing the same (its flattened JSON serialised and parsed back) as information;
// - each server adapter: one sealed 16 MiB upload kept in memory (no `dest`), peak RSS of the
//   server process;
// - each client adapter: one sealed 16 MiB upload of a file held in memory, peak RSS of the
//   client process.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const MiB = 2 ** 20;
const KEY = 'bench-wire-mem16';
const KID = 'bench';
const LIMIT = 4;
// Peaks move from run to run (native buffers are freed only when V8 collects), and a client's fall
// in two groups about half the file apart, by when V8 collects around the envelope's copies. So
// each adapter row is the mean of RUNS fresh processes: a median of a few such peaks jumps the
// whole gap when one process lands in the other group.
const RUNS = Number(process.env.BENCH_WIRE_RUNS ?? 5);
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const spread = (peaks) =>
  `mean of ${peaks.length} fresh processes (${peaks.map((p) => `+${(p / MiB).toFixed(0)}`).join(', ')} MiB)`;
const UPLOAD_MIB = 16;
const here = fileURLToPath(import.meta.url);
const pkg = (path) => new URL(`../../packages/${path}`, import.meta.url).href;
const codec = await import(pkg('codec/dist/index.node.js'));

/** A field of /proc/self/status in bytes (VmRSS, VmHWM). */
const procStatus = (field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))[1]) *
  1024;

/** Two full GCs, then the RSS as the baseline, and the high-water mark reset to it. */
function resetPeak() {
  globalThis.gc();
  globalThis.gc();
  const baseline = procStatus('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5');
  return baseline;
}

const sealToText = (bytes) =>
  codec.encryptFileToString
    ? codec.encryptFileToString(bytes, KEY, { kid: KID })
    : codec.encryptFile(bytes, KEY, { kid: KID }).then((envelope) => JSON.stringify(envelope));

// ---- codec, in this fresh process ----------------------------------------------------------
async function codecChild(impl, mib) {
  let run;
  if (impl === 'jose') {
    const require = createRequire(pkg('codec/package.json'));
    const jose = await import(require.resolve('jose'));
    const key = new TextEncoder().encode(KEY.padEnd(32, '!')).subarray(0, 32);
    const enc = new TextEncoder();
    run = async (bytes) => {
      const payload = enc.encode(`{"file":"${Buffer.from(bytes).toString('base64')}"}`);
      const text = JSON.stringify(
        await new jose.FlattenedEncrypt(payload)
          .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
          .setUnprotectedHeader({ kid: KID })
          .encrypt(key),
      );
      const { plaintext } = await jose.flattenedDecrypt(JSON.parse(text), key);
      const parsed = JSON.parse(new TextDecoder().decode(plaintext));
      return Buffer.from(parsed.file, 'base64');
    };
  } else {
    run = async (bytes) => codec.decryptFile(await sealToText(bytes), KEY);
  }
  const file = randomBytes(mib * MiB);
  await run(randomBytes(1000));
  const baseline = resetPeak();
  const back = await run(file);
  const peak = procStatus('VmHWM');
  if (!Buffer.from(back).equals(file)) throw new Error(`${impl}: the round trip did not give the file back`);
  process.stdout.write(`${JSON.stringify({ grown: peak - baseline })}\n`);
}

// ---- servers: one adapter in this process, the upload sent by the parent ---------------------
async function serverApp(adapter) {
  const keys = { [KID]: KEY };
  const answer = (file) => ({ bytes: file.size });
  if (adapter === 'express') {
    const require = createRequire(pkg('express-middleware/package.json'));
    const express = require('express');
    const { jwe, jweErrorHandler } = await import(pkg('express-middleware/dist/index.js'));
    const transport = jwe({ keys });
    const app = express();
    app.post('/upload', transport.upload({ limit: '64mb' }), (req, res) => res.json(answer(req.file)));
    app.use(jweErrorHandler());
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return server.address().port;
  }
  if (adapter === 'fastify') {
    const require = createRequire(pkg('fastify-plugin/package.json'));
    const Fastify = require('fastify');
    const { jwe } = await import(pkg('fastify-plugin/dist/index.js'));
    const app = Fastify({ bodyLimit: 64 * MiB });
    await app.register(jwe, { keys });
    app.post('/upload', { config: { jwe: { upload: { limit: '64mb' } } } }, async (request) =>
      answer(request.jweFile),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.server.address().port;
  }
  const require = createRequire(pkg('hono-middleware/package.json'));
  const { serve } = require('@hono/node-server');
  let fetch;
  if (adapter === 'hono') {
    const { Hono } = require('hono');
    const { jweUpload } = await import(pkg('hono-middleware/dist/upload.js'));
    const app = new Hono();
    app.post('/upload', jweUpload({ keys, limit: '64mb' }), (c) => c.json(answer(c.get('jweFile'))));
    fetch = app.fetch;
  } else {
    const { withJweUpload } = await import(pkg('server-core/dist/node/index.js'));
    fetch = withJweUpload((_request, file) => Response.json(answer(file)), { keys, limit: '64mb' });
  }
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  return server.address().port;
}

async function serverChild(adapter) {
  const port = await serverApp(adapter);
  let baseline = 0;
  process.on('message', (message) => {
    if (message === 'baseline') {
      baseline = resetPeak();
      process.send({ baseline });
    } else if (message === 'peak') {
      process.send({ grown: procStatus('VmHWM') - baseline });
    }
  });
  process.send({ port });
}

const ask = async (child, message) => {
  child.send(message);
  const [answer] = await once(child, 'message');
  return answer;
};

/** One upload into a fresh server process: how far its RSS high-water mark grew. */
async function serverPeak(adapter, label, file, envelope) {
  const child = fork(here, ['--server', adapter], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  try {
    const { port } = await once(child, 'message').then(([m]) => m);
    await postRaw(port, Buffer.from(await sealToText(randomBytes(1000))));
    await ask(child, 'baseline');
    const answer = await postRaw(port, envelope);
    const { grown } = await ask(child, 'peak');
    if (answer.bytes !== file.length) throw new Error(`${label}: the server stored ${answer.bytes} bytes`);
    return grown;
  } finally {
    child.kill();
  }
}

async function serverRow(adapter, label) {
  const file = randomBytes(UPLOAD_MIB * MiB);
  const envelope = Buffer.from(await sealToText(file));
  const peaks = [];
  for (let run = 0; run < RUNS; run++) peaks.push(await serverPeak(adapter, label, file, envelope));
  return memoryRow(
    `${label}: sealed ${UPLOAD_MIB} MiB upload kept in memory (no dest), server process`,
    mean(peaks),
    UPLOAD_MIB,
    `the envelope (${(envelope.length / MiB).toFixed(1)} MiB) posted as bytes by a plain node:http client in another process; ${spread(peaks)}`,
  );
}

async function postRaw(port, body) {
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    path: '/upload',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', 'content-length': body.length },
  });
  request.end(body);
  const [response] = await once(request, 'response');
  const chunks = [];
  for await (const chunk of response) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (response.statusCode !== 200) throw new Error(`upload answered ${response.statusCode}: ${text}`);
  return codec.decryptJson(text, KEY);
}

// ---- clients: one adapter in this process, uploading to a sink in the parent -----------------
/**
 * The same client with no adapter, posting the sealed body in the cheapest form the codec offers:
 * the envelope's UTF-8 bytes from encryptFileToBytes (a Buffer on Node), which no client encodes
 * again; measured against encryptFileToString's text and a Blob of the bytes, bytes peaked lowest
 * or level for every client.
 */
const sealToBytes = (bytes) =>
  codec.encryptFileToBytes
    ? codec.encryptFileToBytes(bytes, KEY, { kid: KID })
    : sealToText(bytes).then((text) => Buffer.from(text));

/** Each client adapter's entry: the adapter's process uses it, its reference loads it too (see byHandUpload). */
const ADAPTER_ENTRIES = {
  fetch: 'client-core/dist/index.js',
  ky: 'ky-plugin/dist/index.js',
  undici: 'undici-interceptor/dist/index.js',
  axios: 'axios-interceptor/dist/index.node.js',
};

async function byHandUpload(adapter, url) {
  // Loaded and left unused: the modules a process has loaded move when V8 collects, and with it
  // the peak, by up to a file's size for the same upload (measured with unrelated packages too).
  // Loading the same ones leaves the work as the only difference from the adapter's process.
  await import(pkg(ADAPTER_ENTRIES[adapter]));
  const headers = { 'content-type': 'application/json', 'x-encryption': 'JWE' };
  const seal = (file) => sealToBytes(file);
  // Node 20's fetch detaches a byte body as it sends it and then fails a 307/308 redirect that
  // must repeat it; the text survives one. Fetch-based adapters send text for that reason, and so
  // their references do: a body that breaks on a redirect is not the same job done for less.
  const sealForFetch = (file) => sealToText(file);
  if (adapter === 'fetch') {
    return async (file) =>
      (await fetch(`${url}/upload`, { method: 'POST', headers, body: await sealForFetch(file) })).json();
  }
  if (adapter === 'ky') {
    const { default: ky } = await import(pkg('ky-plugin/node_modules/ky/distribution/index.js'));
    // ky copies the caller's body into its Request before any hook runs, so a plugin, which can
    // only act in a hook, starts from that copy of the file: the floor posts the file the same way
    // and swaps the body for the sealed bytes in a beforeRequest hook, the least a hook can do.
    const swapBody = async (request, options) =>
      new Request(request, { headers, body: await sealForFetch(new Uint8Array(options.body)) });
    const client = ky.create({ retry: 0, timeout: false, hooks: { beforeRequest: [swapBody] } });
    return async (file) => client.post(`${url}/upload`, { body: file }).json();
  }
  if (adapter === 'undici') {
    const require = createRequire(pkg('undici-interceptor/package.json'));
    const undici = require('undici');
    const dispatcher = new undici.Agent();
    return async (file) =>
      (
        await undici.request(`${url}/upload`, { dispatcher, method: 'POST', headers, body: await seal(file) })
      ).body.json();
  }
  const require = createRequire(pkg('axios-interceptor/package.json'));
  const axios = require('axios');
  const client = axios.create({ adapter: 'http', maxBodyLength: Infinity, maxContentLength: Infinity });
  return async (file) => (await client.post(`${url}/upload`, await seal(file), { headers })).data;
}

async function clientUpload(adapter, url, byHand) {
  if (byHand) return byHandUpload(adapter, url);
  const options = { key: KEY, kid: KID, origins: [url], plainResponses: 'accept' };
  if (adapter === 'fetch') {
    const { createJweFetch } = await import(pkg(ADAPTER_ENTRIES.fetch));
    const jweFetch = createJweFetch(options);
    return async (file) => (await jweFetch(`${url}/upload`, { method: 'POST', body: file })).json();
  }
  if (adapter === 'ky') {
    const { default: ky } = await import(pkg('ky-plugin/node_modules/ky/distribution/index.js'));
    const { jwe } = await import(pkg(ADAPTER_ENTRIES.ky));
    const client = ky.create({ retry: 0, timeout: false }).extend(jwe(options));
    return (file) => client.post(`${url}/upload`, { body: file }).json();
  }
  if (adapter === 'undici') {
    const require = createRequire(pkg('undici-interceptor/package.json'));
    const undici = require('undici');
    const { jweInterceptor } = await import(pkg(ADAPTER_ENTRIES.undici));
    const dispatcher = new undici.Agent().compose(jweInterceptor(options));
    return async (file) =>
      (await undici.request(`${url}/upload`, { dispatcher, method: 'POST', body: file })).body.json();
  }
  const require = createRequire(pkg('axios-interceptor/package.json'));
  const axios = require('axios');
  const { useJwe } = await import(pkg(ADAPTER_ENTRIES.axios));
  const client = axios.create({ adapter: 'http', maxBodyLength: Infinity, maxContentLength: Infinity });
  useJwe(client, options);
  return async (file) =>
    (
      await client.post(`${url}/upload`, file, {
        headers: { 'content-type': 'application/octet-stream' },
      })
    ).data;
}

async function clientChild(adapter, url, byHand) {
  const upload = await clientUpload(adapter, url, byHand);
  const file = randomBytes(UPLOAD_MIB * MiB);
  await upload(randomBytes(1000));
  const baseline = resetPeak();
  const answer = await upload(file);
  const peak = procStatus('VmHWM');
  process.stdout.write(`${JSON.stringify({ grown: peak - baseline, answer })}\n`);
}

/** A sink that reads each upload to its end and answers plain JSON with what it received. */
async function startSink() {
  const server = createServer((request, response) => {
    let bytes = 0;
    let sealed = true;
    let head = '';
    request.on('data', (chunk) => {
      if (head.length < 64) head += chunk.toString('latin1', 0, 64);
      bytes += chunk.length;
    });
    request.on('end', () => {
      sealed = request.headers['x-encryption'] === 'JWE' && head.startsWith('{');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes, sealed }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function clientPeak(adapter, label, url, byHand) {
  const child = fork(here, ['--client', adapter, url, byHand ? 'by-hand' : 'adapter'], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${label}: the client exited with ${code}`);
  const { grown, answer } = JSON.parse(output.trim().split('\n').pop());
  if (!answer.sealed || answer.bytes < UPLOAD_MIB * MiB)
    throw new Error(`${label}: the sink did not get a sealed upload`);
  return { grown, answer };
}

/** Where a client with the codec by hand already peaks above LIMIT, ours may add this much to it. */
const OVER_FLOOR = 0.3;

async function clientRow(adapter, label, url) {
  const ours = [];
  const byHand = [];
  let answer;
  // Interleaved, so that whatever the machine does between runs hits both alike.
  for (let run = 0; run < RUNS; run++) {
    const measured = await clientPeak(adapter, label, url, false);
    answer = measured.answer;
    ours.push(measured.grown);
    byHand.push((await clientPeak(adapter, label, url, true)).grown);
  }
  const grown = mean(ours);
  const floor = { grown: mean(byHand) };
  const floorTimes = floor.grown / (UPLOAD_MIB * MiB);
  const allowed = Math.max(LIMIT, floorTimes + OVER_FLOOR);
  return memoryRow(
    `${label}: sealed ${UPLOAD_MIB} MiB upload of a file in memory, client process`,
    grown,
    UPLOAD_MIB,
    `the file given as a Uint8Array (${(answer.bytes / MiB).toFixed(1)} MiB envelope on the wire), to a sink in the suite's process; ` +
      'reference: the same client with no adapter posting the sealed body by hand in the cheapest form that survives a redirect ' +
      "(encryptFileToBytes' bytes; for fetch and ky encryptFileToString's text, as Node 20's fetch cannot resend bytes), which is the client's own copies " +
      "(for ky, the file posted as the plugin gets it and swapped for that body in a beforeRequest hook, since ky copies the caller's body before any hook runs), " +
      "in a process that has loaded the adapter's modules too, unused (loaded modules alone moved the same upload's peak by up to 1x the file); where that already peaks above " +
      `${LIMIT}x the file, the target is that floor + ${OVER_FLOOR}x the file (the guide: measure the floor, meet the rest); ` +
      "createJweFetch and ky send the envelope as text, since Node 20's fetch cannot resend a byte body on a 307/308 redirect; " +
      `ours ${spread(ours)}; by hand ${spread(byHand)}`,
    `by hand +${(floor.grown / MiB).toFixed(0)} MiB (${floorTimes.toFixed(1)}x)`,
    {
      target: `peak ≤ ${LIMIT}x the file, or ≤ by hand + ${OVER_FLOOR}x where by hand peaks above ${LIMIT}x (here ${allowed.toFixed(1)}x)`,
      limit: allowed,
    },
  );
}

function memoryRow(label, grown, mib, notes, reference = '', { target, limit = LIMIT } = {}) {
  const times = grown / (mib * MiB);
  return {
    case: label,
    ours: `+${(grown / MiB).toFixed(0)} MiB (${times.toFixed(1)}x the file)`,
    reference,
    ratio: '',
    cpu_ratio: '',
    target: target ?? `peak ≤ ${LIMIT}x the file`,
    met: times <= limit,
    notes: `RSS high-water mark (VmHWM) over the baseline, fresh process; ${notes}`,
  };
}

function codecMemory(impl, mib) {
  const child = fork(here, ['--codec', impl, String(mib)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  return once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`the ${impl} memory measurement failed (exit ${code})`);
    return JSON.parse(output.trim().split('\n').pop()).grown;
  });
}

const SERVERS = [
  ['express', 'Express 5 + jwe().upload()'],
  ['fastify', 'Fastify 5 + jwe, config.jwe.upload'],
  ['hono', 'Hono 4 + jweUpload() on @hono/node-server'],
  ['web', 'withJweUpload(handler) on @hono/node-server'],
];
const CLIENTS = [
  ['fetch', 'createJweFetch (Node global fetch)'],
  ['ky', 'ky 1 + jwe()'],
  ['undici', 'undici request() + jweInterceptor'],
  ['axios', 'axios http adapter + useJwe()'],
];

async function main() {
  const only = process.env.BENCH_WIRE_ONLY;
  const rows = [];
  const sealing = codec.encryptFileToString
    ? 'encryptFileToString → decryptFile(string)'
    : 'encryptFile → JSON.stringify → decryptFile(string)';
  if (!only || only === 'codec') {
    for (const mib of [16, 64]) {
      const ours = await codecMemory('ours', mib);
      const jose = await codecMemory('jose', mib);
      rows.push(
        memoryRow(
          `${mib} MiB file sealed to a string and opened from it (${sealing})`,
          ours,
          mib,
          'the file allocated and every code path run once before the baseline',
          `jose +${(jose / MiB).toFixed(0)} MiB (${(jose / (mib * MiB)).toFixed(1)}x), FlattenedEncrypt → JSON.stringify → JSON.parse → flattenedDecrypt, information`,
        ),
      );
    }
  }
  if (!only || only === 'servers') {
    for (const [adapter, label] of SERVERS) rows.push(await serverRow(adapter, label));
  }
  if (!only || only === 'clients') {
    const sink = await startSink();
    try {
      for (const [adapter, label] of CLIENTS) rows.push(await clientRow(adapter, label, sink.url));
    } finally {
      sink.server.close();
    }
  }
  report('One-shot wire path: peak memory of sealing to text and opening from text', rows);
}

const mode = process.argv[2];
if (mode === '--codec') await codecChild(process.argv[3], Number(process.argv[4]));
else if (mode === '--server') await serverChild(process.argv[3]);
else if (mode === '--client')
  await clientChild(process.argv[3], process.argv[4], process.argv[5] === 'by-hand');
else await main();
