// Sealed uploads end to end: a 1 GiB file from disk (BENCH_E2E_MIB), sealed and streamed by a
// client adapter (ky on Node, undici's interceptor) into a server adapter (Express, Fastify) that
// opens it to disk. The floor is the codec by hand on both sides in the same run: encryptFileStream
// of the file piped into http.request, and a node:http server that hands the request to
// decryptFileStream writing to disk. Every upload runs in a fresh client process and a fresh
// server process, so each side's peak RSS (VmHWM) is its own; the stored file's SHA-256 is checked
// against the original's, and the file is removed. A plain multipart upload of the same file into
// the same routes is shown beside them as information, and so is ky's own floor: the Blob ky is
// handed, sealed by hand and sent by Node's fetch, which ky's rows may also be judged against;
// and undici's: undici sending the codec's stream by hand, whose client peak bounds undici's rows.
// BENCH_E2E_ROUNDS interleaved rounds (default 5); the wall ratio judged is the median of each
// round's ours / floor.
import { fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, openAsBlob, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { alternating, formatMBps, formatSeconds, median, pairedRatio, report } from './lib.mjs';

const MiB = 2 ** 20;
const SIZE = Number(process.env.BENCH_E2E_MIB ?? 1024) * MiB;
const ROUNDS = Number(process.env.BENCH_E2E_ROUNDS ?? 5);
const KEY = 'bench-e2e-key-16';
const KID = 'bench';
const WALL_LIMIT = 1.2;
const RSS_LIMIT = 100e6;
const here = fileURLToPath(import.meta.url);
const pkg = (path) => new URL(`../../packages/${path}`, import.meta.url).href;

const peakRss = () =>
  Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

// ---- servers ---------------------------------------------------------------------------------
async function startServer(kind, dest) {
  const keys = { [KID]: KEY };
  const limit = `${Math.ceil((SIZE * 2) / MiB)}mb`;
  if (kind === 'express') {
    const require = createRequire(pkg('express-middleware/package.json'));
    const express = require('express');
    const { jwe, jweErrorHandler } = await import(pkg('express-middleware/dist/index.js'));
    const app = express();
    app.post('/upload', jwe({ keys }).upload({ dest, limit }), (req, res) =>
      res.json({ path: req.file.path, size: req.file.size }),
    );
    app.use(jweErrorHandler());
    return new Promise((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server.address().port));
    });
  }
  if (kind === 'fastify') {
    const require = createRequire(pkg('fastify-plugin/package.json'));
    const Fastify = require('fastify');
    const { jwe } = await import(pkg('fastify-plugin/dist/index.js'));
    const app = Fastify({ bodyLimit: SIZE * 2 });
    await app.register(jwe, { keys });
    app.post('/upload', { config: { jwe: { upload: { dest, limit } } } }, async (request) => ({
      path: request.jweFile.path,
      size: request.jweFile.size,
    }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.server.address().port;
  }
  // The floor: the codec by hand, the request handed to decryptFileStream, written to disk.
  const { decryptFileStream } = await import(pkg('codec/dist/index.node.js'));
  let count = 0;
  const server = createServer(async (request, response) => {
    const path = join(dest, `by-hand-${count++}.bin`);
    try {
      const { bytes } = await decryptFileStream(request, KEY, { to: path });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ path, size: bytes }));
    } catch (error) {
      response.writeHead(400).end(String(error.message));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

async function serverChild(kind, dest) {
  const port = await startServer(kind, dest);
  process.on('message', (message) => {
    if (message === 'report') process.send({ peak: peakRss(), cpu: cpuSeconds() });
  });
  process.send({ port });
}

// ---- clients ---------------------------------------------------------------------------------
async function clientUpload(kind, url, file) {
  const options = { key: KEY, kid: KID, origins: [url] };
  if (kind === 'ky') {
    const { default: ky } = await import(pkg('ky-plugin/node_modules/ky/distribution/index.js'));
    const { jwe } = await import(pkg('ky-plugin/dist/index.js'));
    const client = ky.create({ retry: 0, timeout: false }).extend(jwe(options));
    return async () => client.post(`${url}/upload`, { body: await openAsBlob(file) }).json();
  }
  if (kind === 'undici' || kind === 'undici-hand') {
    const require = createRequire(pkg('undici-interceptor/package.json'));
    const undici = require('undici');
    // By hand loads the interceptor too, unused: loaded modules alone move when V8 collects, and
    // with it the peak RSS (see the wire-memory suite's by-hand references).
    const { jweInterceptor } = await import(pkg('undici-interceptor/dist/index.js'));
    if (kind === 'undici-hand') {
      const { encryptFileStream } = await import(pkg('codec/dist/index.node.js'));
      const dispatcher = new undici.Agent();
      return async () => {
        const answer = await undici.request(`${url}/upload`, {
          dispatcher,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
          body: Readable.fromWeb(encryptFileStream(createReadStream(file), KEY, { kid: KID })),
        });
        if (answer.statusCode !== 200) throw new Error(`undici by hand answered ${answer.statusCode}`);
        return answer.body.json();
      };
    }
    const dispatcher = new undici.Agent().compose(jweInterceptor(options));
    return async () => {
      const answer = await undici.request(`${url}/upload`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: createReadStream(file),
      });
      return answer.body.json();
    };
  }
  if (kind === 'multipart') {
    return async () => {
      const form = new FormData();
      form.append('file', await openAsBlob(file), 'upload.bin');
      const answer = await fetch(`${url}/upload`, { method: 'POST', body: form });
      if (!answer.ok) throw new Error(`multipart upload answered ${answer.status}: ${await answer.text()}`);
      return answer.json();
    };
  }
  const { encryptFileStream } = await import(pkg('codec/dist/index.node.js'));
  if (kind === 'fetch' || kind === 'fetch-blob') {
    // 'fetch': what ky stands on, Node's fetch sending encryptFileStream's stream as a plain fetch
    // call would (default redirect). 'fetch-blob': ky's own floor, the same Blob ky is handed,
    // sealed by hand and sent with the settings the adapters use for a stream (no redirect, so no
    // copy kept).
    const ownFloor = kind === 'fetch-blob';
    return async () => {
      const source = ownFloor ? (await openAsBlob(file)).stream() : createReadStream(file);
      const answer = await fetch(`${url}/upload`, {
        method: 'POST',
        duplex: 'half',
        ...(ownFloor ? { redirect: 'error', window: null } : {}),
        headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
        body: encryptFileStream(source, KEY, { kid: KID }),
      });
      if (!answer.ok) throw new Error(`fetch by hand answered ${answer.status}: ${await answer.text()}`);
      return answer.json();
    };
  }
  // The floor: encryptFileStream of the file piped into http.request, by hand.
  return async () => {
    const request = httpRequest(`${url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
    });
    const answered = new Promise((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    await pipeline(Readable.fromWeb(encryptFileStream(createReadStream(file), KEY, { kid: KID })), request);
    const response = await answered;
    let text = '';
    for await (const chunk of response) text += chunk;
    if (response.statusCode !== 200)
      throw new Error(`by-hand upload answered ${response.statusCode}: ${text}`);
    return JSON.parse(text);
  };
}

async function clientChild(kind, url, file) {
  const upload = await clientUpload(kind, url, file);
  const cpu = cpuSeconds();
  const start = performance.now();
  const answer = await upload();
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(`${JSON.stringify({ seconds, cpu: cpuSeconds() - cpu, peak: peakRss(), answer })}\n`);
}

// ---- the run ---------------------------------------------------------------------------------
/** Asks a server child for its figures (peak RSS, CPU so far). */
const ask = (child) => {
  const answer = firstMessage(child);
  child.send('report');
  return answer;
};

const firstMessage = (child) =>
  new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`a child exited with ${code} before answering`)));
  });

function runClient(kind, url, file) {
  const child = fork(here, ['--client', kind, url, file], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${kind} client exited with ${code}`));
      else resolve(JSON.parse(output.trim().split('\n').pop()));
    });
  });
}

async function sha256(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * MiB })) hash.update(chunk);
  return hash.digest('hex');
}

/** One upload: a fresh server and a fresh client; both sides' figures and the stored file checked. */
async function uploadOnce(client, server, file, expectedHash, dest) {
  const child = fork(here, ['--server', server, dest], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { port } = await firstMessage(child);
    const cpuBefore = await ask(child);
    const result = await runClient(client, `http://127.0.0.1:${port}`, file);
    const serverSide = await ask(child);
    const stored = result.answer.path;
    const intact = (await sha256(stored)) === expectedHash && statSync(stored).size === SIZE;
    await rm(stored, { force: true });
    return {
      seconds: result.seconds,
      clientCpu: result.cpu,
      serverCpu: serverSide.cpu - cpuBefore.cpu,
      cpu: result.cpu + (serverSide.cpu - cpuBefore.cpu),
      clientPeak: result.peak,
      serverPeak: serverSide.peak,
      intact,
    };
  } finally {
    child.kill();
  }
}

async function makeFile(path) {
  const block = randomBytes(4 * MiB);
  await pipeline(
    Readable.from(
      (function* () {
        for (let left = SIZE, i = 0; left > 0; left -= block.length, i++) {
          block.writeUInt32LE(i, 0);
          yield Buffer.from(block.subarray(0, Math.min(block.length, left)));
        }
      })(),
    ),
    createWriteStream(path),
  );
}

const PAIRS = [
  ['ky', 'express', 'ky 1 + jwe() → Express 5 jwe().upload({ dest })'],
  ['ky', 'fastify', 'ky 1 + jwe() → Fastify 5 jwe, config.jwe.upload { dest }'],
  ['undici', 'express', 'undici request() + jweInterceptor → Express 5 jwe().upload({ dest })'],
  ['undici', 'fastify', 'undici request() + jweInterceptor → Fastify 5 jwe, config.jwe.upload { dest }'],
];
const PLAIN = [
  ['multipart', 'express', 'plain multipart (fetch + FormData) → Express 5 jwe().upload({ dest })'],
  ['multipart', 'fastify', 'plain multipart (fetch + FormData) → Fastify 5 jwe, config.jwe.upload { dest }'],
];

const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
const cell = (runs) => {
  const seconds = median(runs.map((r) => r.seconds));
  return (
    `${formatSeconds(seconds)} (${formatMBps(SIZE / seconds)}), CPU client ${formatSeconds(median(runs.map((r) => r.clientCpu)))} ` +
    `+ server ${formatSeconds(median(runs.map((r) => r.serverCpu)))}, ` +
    `peak RSS client ${mb(Math.max(...runs.map((r) => r.clientPeak)))} / server ${mb(Math.max(...runs.map((r) => r.serverPeak)))}`
  );
};

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'jwe-bench-e2e-'));
  try {
    const file = join(dir, 'upload.bin');
    const dest = join(dir, 'stored');
    await mkdir(dest);
    await makeFile(file);
    const hash = await sha256(file);
    const runs = new Map();
    const record = (key, run) => runs.set(key, [...(runs.get(key) ?? []), run]);
    for (let round = 0; round < ROUNDS; round++) {
      // Each judged upload runs next to what its ratio divides by, so that the two share the
      // machine's state of the moment: the floor, then ky's two rows on either side of its fetch +
      // Blob floor, then undici's on either side of undici by hand. The information-only cases close
      // the round.
      const [kyExpress, kyFastify, undiciExpress, undiciFastify] = PAIRS;
      const cases = [
        ['floor', 'floor'],
        kyExpress,
        ['fetch-blob', 'floor'],
        kyFastify,
        undiciExpress,
        ['undici-hand', 'floor'],
        undiciFastify,
        ['fetch', 'floor'],
        ...PLAIN,
      ];
      for (const [client, server] of alternating(cases, round)) {
        record(`${client}>${server}`, await uploadOnce(client, server, file, hash, dest));
      }
    }
    const floor = runs.get('floor>floor');
    const floorCell = cell(floor);
    const fetchBlob = runs.get('fetch-blob>floor');
    const undiciHand = runs.get('undici-hand>floor');
    const clientPeakOf = (ofRuns) => Math.max(...ofRuns.map((r) => r.clientPeak));
    const rows = [];
    for (const [client, server, label] of PAIRS) {
      const ours = runs.get(`${client}>${server}`);
      const wall = pairedRatio(
        ours.map((r) => r.seconds),
        floor.map((r) => r.seconds),
      );
      const cpu = pairedRatio(
        ours.map((r) => r.cpu),
        floor.map((r) => r.cpu),
      );
      // undici itself (loaded, sending the codec's stream by hand) is the client's floor: where it
      // peaks over the limit in this run, undici's client side is held to that peak instead.
      const clientLimit = client === 'undici' ? Math.max(RSS_LIMIT, clientPeakOf(undiciHand)) : RSS_LIMIT;
      const rssMet =
        clientPeakOf(ours) <= clientLimit && Math.max(...ours.map((r) => r.serverPeak)) <= RSS_LIMIT;
      const intact = ours.every((r) => r.intact) && floor.every((r) => r.intact);
      // ky is handed a Blob and sends through Node's fetch; where that layer by hand is already
      // above the limit, ky is held to the same limit over that layer (see its information row).
      const overOwnFloor =
        client === 'ky'
          ? pairedRatio(
              ours.map((r) => r.seconds),
              fetchBlob.map((r) => r.seconds),
            )
          : undefined;
      const wallMet = wall <= WALL_LIMIT || (overOwnFloor !== undefined && overOwnFloor <= WALL_LIMIT);
      rows.push({
        case: `${label}: sealed ${SIZE / MiB} MiB upload from disk, opened to disk`,
        ours: cell(ours),
        reference: `by hand ${floorCell}`,
        ratio: wall.toFixed(2),
        cpu_ratio: cpu.toFixed(2),
        target:
          `wall ≤ ${WALL_LIMIT.toFixed(2)}x by hand` +
          (overOwnFloor === undefined ? '' : ` (or its fetch + Blob floor)`) +
          `; peak RSS ≤ ${mb(RSS_LIMIT)} each side` +
          (client === 'undici' ? ' (client: or undici by hand)' : '') +
          '; SHA-256 intact',
        met: wallMet && rssMet && intact,
        notes:
          (overOwnFloor === undefined
            ? ''
            : `wall ${overOwnFloor.toFixed(2)}x the fetch + Blob floor below (Node's fetch sending the same Blob sealed by hand); `) +
          (client === 'undici'
            ? `client peak RSS held to ${mb(clientLimit)} (undici by hand, below: ${mb(clientPeakOf(undiciHand))}); `
            : '') +
          `ratios: ours / by hand (lower is better), the median of ${ROUNDS} interleaved rounds' own ratios; CPU = client + server ` +
          'process CPU; by hand: encryptFileStream piped into http.request, a node:http server handing the request to ' +
          `decryptFileStream({ to: path }); fresh client and server processes per upload; stored file's SHA-256 matches: ${intact ? 'yes' : 'NO'}`,
      });
    }
    /** An information row: `runs` against the http.request floor, wall and CPU. */
    const againstFloor = (label, ofRuns, notes) => ({
      case: `${label} → the by-hand server: sealed ${SIZE / MiB} MiB upload from disk, opened to disk`,
      ours: cell(ofRuns),
      reference: `by hand ${floorCell}`,
      ratio: pairedRatio(
        ofRuns.map((r) => r.seconds),
        floor.map((r) => r.seconds),
      ).toFixed(2),
      cpu_ratio: pairedRatio(
        ofRuns.map((r) => r.cpu),
        floor.map((r) => r.cpu),
      ).toFixed(2),
      target: '',
      notes: `information: ${notes}; SHA-256 matches: ${ofRuns.every((r) => r.intact) ? 'yes' : 'NO'}`,
    });
    rows.push(
      againstFloor(
        "fetch by hand (Node's fetch sending encryptFileStream's stream)",
        runs.get('fetch>floor'),
        "the layer ky stands on, with the codec by hand as its README's plain fetch call would be written (duplex: 'half', default redirect), against the http.request floor. Node's fetch then keeps every chunk sent in case a redirect repeats the body, which shows in its peak RSS; the adapters send with redirect: 'error' and no window so that it keeps none",
      ),
      againstFloor(
        "fetch + Blob by hand (Node's fetch sending encryptFileStream of openAsBlob(file).stream(), redirect: 'error')",
        fetchBlob,
        "ky's own floor, the layers it stands on with the codec by hand: the Blob ky is handed (the README's way to send a file), sealed by encryptFileStream and sent by Node's fetch as the adapters send a stream. Node reads a file Blob 64 KiB at a time as it is asked, against createReadStream's read-ahead in the floor",
      ),
      againstFloor(
        'undici by hand (undici request() sending encryptFileStream of createReadStream(file))',
        undiciHand,
        "the undici client's own floor: undici loaded and sending the codec's stream by hand (with the interceptor's modules loaded, unused), whose peak RSS bounds the interceptor's client side where it is over the limit",
      ),
    );
    for (const [client, server, label] of PLAIN) {
      const plain = runs.get(`${client}>${server}`);
      rows.push({
        case: `${label}: ${SIZE / MiB} MiB upload from disk, stored to disk`,
        ours: cell(plain),
        reference: `sealed by hand ${floorCell}`,
        ratio: pairedRatio(
          plain.map((r) => r.seconds),
          floor.map((r) => r.seconds),
        ).toFixed(2),
        cpu_ratio: '',
        target: '',
        notes: `information: the same file unencrypted, as multipart/form-data; SHA-256 matches: ${plain.every((r) => r.intact) ? 'yes' : 'NO'}`,
      });
    }
    report(
      `Sealed uploads end to end (${SIZE / MiB} MiB from disk, client adapter into server adapter, to disk)`,
      rows,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mode = process.argv[2];
if (mode === '--server') await serverChild(process.argv[3], process.argv[4]);
else if (mode === '--client') await clientChild(process.argv[3], process.argv[4], process.argv[5]);
else await main();
