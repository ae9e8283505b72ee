// ky with the JWE plugin, 1 KiB JSON round trips against the same local node:http server
// (jwe-echo-server.mjs), which runs in a child process so that its work does not share the
// client's event loop or its CPU time (process.cpuUsage here is the client's alone).
//   plain ky : the client sends the JSON; the server parses it and answers the same JSON.
//   plugin   : the client seals the JSON (jwe()'s stringifyJson), the server decrypts it, encrypts
//              the same JSON and answers the envelope with X-Encryption: JWE; jwe()'s fetch opens it.
//   by hand  : the same ky, with the codec's encryptJson before and decryptJson after.
// ky 1 runs under this Node; ky 2 (the ky-plugin's `ky2` devDependency) in a child under Node 24
// (BENCH_NODE24, else npm's node@24 via npx), which prints its own report.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  BY_HAND_CPU_LIMIT,
  compareClientsAndByHand,
  PAYLOAD,
  SHARED_KEY,
  startEchoServer,
} from './jwe-echo-server.mjs';
import { report } from './lib.mjs';
import { PROGRESS_KEY, progressRows } from './upload-progress.mjs';

/** The plugin's floor: by hand plus the Response a plugin must hand ky, read the way ours is read. */
const KY_FLOOR = {
  step: "new Response(plaintext) from ky's fetch option",
  why:
    "the answer decrypted with decrypt in ky's fetch option and handed to ky as new Response(plaintext, answer), " +
    "then read with ky's json() as ours is: a plugin must return a Response before ky reads the answer " +
    '(on Node 20 each Response body is a new ReadableStream)',
};

const kyPlugin = new URL('../../packages/ky-plugin/', import.meta.url);

/** The plain, plugin and by-hand rows of one ky generation against `server`. */
async function kyRows(ky, label, server) {
  const { jwe } = await import(new URL('dist/index.js', kyPlugin).href);
  const { decrypt, decryptJson, encryptJson } = await import(
    new URL('../../packages/codec/dist/index.node.js', import.meta.url).href
  );
  // Full URLs: ky 1's prefixUrl is ky 2's prefix.
  const plain = ky.create({ retry: 0 });
  const jweUrl = `${server.url}/jwe`;
  const plainUrl = `${server.url}/plain`;
  const encrypted = plain.extend(jwe({ key: SHARED_KEY, kid: 'bench' }));
  // What the plugin sets on a sealed JSON call: X-Encryption: JWE and content-type application/json
  // (ky's json option sets the latter); it opens the answer and parses the plaintext strictly.
  const sealedHeaders = { 'x-encryption': 'JWE' };
  const checked = (name, call) => async () => {
    const echoed = await call();
    if (echoed.note !== PAYLOAD.note) throw new Error(`the ${name} round trip did not echo the payload`);
  };
  const byHand = checked('by-hand', async () => {
    const envelope = await encryptJson(PAYLOAD, SHARED_KEY, { kid: 'bench' });
    const answer = await plain.post(jweUrl, { json: envelope, headers: sealedHeaders }).arrayBuffer();
    return decryptJson(new Uint8Array(answer), SHARED_KEY);
  });
  // ky hands back a Response: the plugin's floor builds one from the plaintext, where a plugin must
  // (in ky's fetch option, before ky reads the answer), and reads it with ky's json() as ours does.
  const openedByHand = plain.extend({
    fetch: async (input, init) => {
      const answer = await globalThis.fetch(input, init);
      const plaintext = await decrypt(new Uint8Array(await answer.arrayBuffer()), SHARED_KEY);
      return new Response(plaintext, answer);
    },
  });
  const floor = checked('floor', async () => {
    const envelope = await encryptJson(PAYLOAD, SHARED_KEY, { kid: 'bench' });
    return openedByHand.post(jweUrl, { json: envelope, headers: sealedHeaders }).json();
  });
  return compareClientsAndByHand({
    server,
    label,
    floor: { call: floor, ...KY_FLOOR },
    ours: checked('jwe', () => encrypted.post(jweUrl, { json: PAYLOAD }).json()),
    plain: checked('plain', () => plain.post(plainUrl, { json: PAYLOAD }).json()),
    byHand,
    notes: 'ours: ky.create().extend(jwe({ key, kid })); reference: the same ky without it',
    byHandNotes:
      "ky's json option with encryptJson's envelope, X-Encryption: JWE (ky sets content-type), " +
      "the answer read as bytes and opened with decryptJson (the codec's strict parse)",
  });
}

/** Node 24's binary: BENCH_NODE24, else the npm `node@24` package through npx, as CI gets it. */
function node24() {
  if (process.env.BENCH_NODE24) return process.env.BENCH_NODE24;
  const found = spawnSync('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

async function ky2Report() {
  const { default: ky } = await import(new URL('node_modules/ky2/distribution/index.js', kyPlugin).href);
  const {
    default: { version },
  } = await import(new URL('node_modules/ky2/package.json', kyPlugin).href, {
    with: { type: 'json' },
  });
  const server = await startEchoServer();
  try {
    const rows = await kyRows(ky, `ky ${version} + jwe() (Node ${process.version})`, server);
    report('ky 2 plugin vs plain ky 2 and ky 2 + codec by hand (1 KiB JSON round trips, Node 24)', rows);
  } finally {
    server.stop();
  }
}

async function main() {
  const { default: ky } = await import(new URL('node_modules/ky/distribution/index.js', kyPlugin).href);
  const {
    default: { version },
  } = await import(new URL('node_modules/ky/package.json', kyPlugin).href, {
    with: { type: 'json' },
  });
  const { jwe } = await import(new URL('dist/index.js', kyPlugin).href);
  const server = await startEchoServer();
  let rows;
  try {
    rows = await kyRows(ky, `ky ${version} + jwe() (Node ${process.version})`, server);
  } finally {
    server.stop();
  }
  // A sealed 64 MiB upload, progress on vs off: the cost of counting plaintext bytes for ky's
  // onUploadProgress (the sink answers plain JSON, so the client accepts plain answers).
  const uploads = ky
    .create({ retry: 0, timeout: false })
    .extend(jwe({ key: PROGRESS_KEY, plainResponses: 'accept' }));
  const progress = await progressRows('ky 1 + jwe()', (url, file, onUploadProgress) =>
    uploads.post(`${url}/upload`, { body: file, ...(onUploadProgress ? { onUploadProgress } : {}) }).json(),
  );
  report('ky plugin vs plain ky and ky + codec by hand (1 KiB JSON round trips, local node:http server)', [
    ...rows,
    ...ky2Rows(),
    ...progress,
  ]);
}

function lastReport(output) {
  try {
    return JSON.parse(output.trim().split('\n').pop());
  } catch {
    return undefined;
  }
}

/** The ky 2 rows, measured by a child under Node 24 (its report is its last line of output). */
function ky2Rows() {
  const node = process.versions.node.split('.')[0] === '24' ? process.execPath : node24();
  const child =
    node === undefined
      ? undefined
      : spawnSync(node, [fileURLToPath(import.meta.url), '--ky2'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        });
  const rows = child?.status === 0 ? lastReport(child.stdout)?.rows : undefined;
  return (
    rows ?? [
      {
        case: 'ky 2 + jwe(): adapter vs the same client + codec encryptJson/decryptJson by hand',
        target: `CPU ≤ ${BY_HAND_CPU_LIMIT.toFixed(2)}x by hand`,
        met: false,
        notes: `not measured: ${child ? `the Node 24 child failed (exit ${child.status})` : 'Node 24 could not be found (set BENCH_NODE24)'}`,
      },
    ]
  );
}

if (process.argv.includes('--ky2')) await ky2Report();
else await main();
