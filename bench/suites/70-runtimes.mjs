// Every runtime against its peer: the codec and npm jose doing the same work in the same runtime
// (runtime-workload.mjs): 1 KiB of JSON and a 1 MiB file, encrypt and decrypt, interleaved rounds,
// medians. Node 24 (BENCH_NODE24, else npm's node@24 through npx), Deno and Bun (the npm packages
// runtime-tests installs) and headless Chromium (Debian's, via playwright-core, the WebCrypto build
// bundled by esbuild with the `browser` condition). The rows judged against the target are each
// runtime's own pick: the codec imported by name, so the runtime's export conditions choose the
// build (Node and Bun the Node build, Deno the Deno build). The other builds a runtime can load by
// path are measured beside them as information. Wall time only: a browser has no CPU clock.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatOps, report } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const QUICK = process.env.BENCH_QUICK === '1';
const CODEC = {
  node: join(root, 'packages/codec/dist/index.node.js'),
  webcrypto: join(root, 'packages/codec/dist/index.js'),
};
const JOSE = createRequire(join(root, 'package.json')).resolve('jose');
const runtimeRequire = createRequire(join(root, 'runtime-tests/package.json'));
const packageDir = (name) => dirname(runtimeRequire.resolve(`${name}/package.json`));

/** Node 24's binary: BENCH_NODE24, else the npm `node@24` package through npx, as CI gets it. */
function node24() {
  if (process.env.BENCH_NODE24) return process.env.BENCH_NODE24;
  const found = spawnSync('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

function runPeer(label, command, args) {
  const run = spawnSync(command, args, {
    cwd: here,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? root,
      NO_COLOR: '1',
      DENO_NO_UPDATE_CHECK: '1',
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`${label} failed (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

const peerArgs = (build) => [
  join(here, 'runtime-peer.mjs'),
  build === 'own' ? 'own' : CODEC[build],
  JOSE,
  QUICK ? 'quick' : 'full',
];

/**
 * The codec as a bundler resolves it for a page (by name, `browser` condition: the WebCrypto build)
 * and jose, bundled into a page on 127.0.0.1 (a secure context), run in Chromium.
 */
async function inChromium() {
  const esbuild = runtimeRequire('esbuild');
  const { chromium } = runtimeRequire('playwright-core');
  const dir = await mkdtemp(join(tmpdir(), 'jwe-bench-runtimes-'));
  const entry = join(dir, 'entry.mjs');
  await import('node:fs/promises').then(({ writeFile }) =>
    writeFile(
      entry,
      `import * as codec from '@jwe-transport/codec';
import * as jose from ${JSON.stringify(JOSE)};
import { compareWithJose } from ${JSON.stringify(join(here, 'runtime-workload.mjs'))};
// The browser's own standard base64 for jose's side: Uint8Array.toBase64 where it exists, else btoa.
const base64 = Uint8Array.prototype.toBase64
  ? { encode: (b) => b.toBase64(), decode: (t) => Uint8Array.fromBase64(t) }
  : {
      encode(bytes) {
        let s = '';
        for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(s);
      },
      decode(text) {
        const s = atob(text);
        const out = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
        return out;
      },
    };
globalThis.runBench = async (quick) => ({ backend: codec.backendName, base64: Uint8Array.prototype.toBase64 ? 'Uint8Array.toBase64' : 'btoa', rows: await compareWithJose({ codec, jose, base64, quick }) });
`,
    ),
  );
  const built = await esbuild.build({
    entryPoints: [entry],
    outfile: join(dir, 'bundle.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    conditions: ['browser'],
    nodePaths: [join(root, 'node_modules')],
    metafile: true,
    logLevel: 'silent',
  });
  const codecFile = Object.keys(built.metafile.inputs)
    .map((input) => /packages\/codec\/dist\/([^/]+)$/.exec(input)?.[1])
    .find(Boolean);
  const bundle = await readFile(join(dir, 'bundle.js'));
  const server = createServer((request, response) => {
    if (request.url === '/bundle.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><meta charset="utf-8"><script type="module" src="/bundle.js"></script>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = join(dir, 'profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => typeof globalThis.runBench === 'function');
    const version = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    const result = await page.evaluate((quick) => globalThis.runBench(quick), QUICK);
    return { ...result, file: codecFile, version };
  } finally {
    await context.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** What WebCrypto's one-shot primitives make the WebCrypto build do, said beside its file rows. */
const WEBCRYPTO_SHAPE =
  "WebCrypto's AES-CBC and HMAC take their whole input at once: the file payload is built whole " +
  "before it is encrypted, and the MAC's input (AAD, IV, ciphertext, length) is copied into one buffer, " +
  'one more pass over the ciphertext each way that node:crypto streams without';

const TARGET = 'ours ≥ 1.0x jose (wall)';

/**
 * One runtime's rows for one build. `own` names the file the runtime (`who`) picks by itself: rows
 * of that build are judged; rows of any other build are information, without target or `met`.
 */
const rowsOf = (runtime, result, { own, who, given = '' }) =>
  result.rows.map((row) => {
    const judged = result.file === own;
    const shape = result.backend === 'webcrypto' && row.what.includes('file') ? WEBCRYPTO_SHAPE : '';
    const picked = judged
      ? ''
      : `information: not the build ${who} picks on its own (${own}), loaded by path`;
    const notes = [picked, given, shape].filter(Boolean).join('; ');
    const build = judged
      ? `own resolution, ${result.file} (${result.backend} one-shot)`
      : `${result.file} by path (${result.backend} one-shot), information`;
    return {
      case: `${runtime}, ${build}: ${row.what}`,
      ours: formatOps(row.ours),
      reference: `jose ${formatOps(row.jose)}`,
      ratio: `${row.ratio.toFixed(2)}x`,
      cpu_ratio: '',
      target: judged ? TARGET : '',
      ...(judged ? { met: row.ratio >= 1 } : {}),
      notes:
        `ratio: ours' rate / jose's in the same round, median of ${row.rounds} interleaved rounds ` +
        `(${row.low.toFixed(2)}x–${row.high.toFixed(2)}x)${notes ? `; ${notes}` : ''}`,
    };
  });

const failed = (runtime, error) => [
  {
    case: `${runtime}: not measured`,
    target: TARGET,
    met: false,
    notes: String(error.message).slice(0, 300),
  },
];

const rows = [];
const node = node24();
const version = (command, args) =>
  spawnSync(command, args, { encoding: 'utf8' }).stdout.trim().split('\n')[0];
const deno = join(packageDir('deno'), 'deno');
const bun = join(packageDir('bun'), 'bin', 'bun.exe');
const denoRun = ['run', '--quiet', '--no-prompt', '--allow-read'];

/**
 * Each runtime's own pick first (`own`: the codec by its package name), then the other builds it
 * can load, by path, as information.
 */
const runtimes = [
  { name: 'Node 24', command: node, prefix: [], others: [], label: (v) => `Node ${v}` },
  { name: 'Deno', command: deno, prefix: denoRun, others: ['webcrypto', 'node'], label: (v) => v },
  { name: 'Bun', command: bun, prefix: [], others: ['webcrypto'], label: (v) => `Bun ${v}` },
];
for (const { name, command, prefix, others, label: labelOf } of runtimes) {
  if (!command) {
    rows.push(...failed(name, new Error(`${name} could not be found (set BENCH_NODE24)`)));
    continue;
  }
  const label = labelOf(version(command, ['--version']));
  let own;
  for (const build of ['own', ...others]) {
    try {
      const result = runPeer(name, command, [...prefix, ...peerArgs(build)]);
      if (build === 'own') own = result.file;
      rows.push(...rowsOf(label, result, { own: own ?? '(its own pick failed)', who: name }));
    } catch (error) {
      rows.push(...failed(`${name} (${build === 'own' ? 'own resolution' : `${build} build`})`, error));
    }
  }
}
try {
  const result = await inChromium();
  // A bundler resolves the package for the page with the `browser` condition: Chromium's own pick.
  rows.push(
    ...rowsOf(`Chromium ${result.version}`, result, {
      own: result.file,
      who: 'Chromium',
      given: `jose's base64 through ${result.base64}`,
    }),
  );
} catch (error) {
  rows.push(...failed('Chromium', error));
}
report('Every runtime against its peer: the codec vs npm jose in the same runtime', rows);
