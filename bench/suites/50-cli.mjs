// The `jwe-transport` binary as people run it: one process per command. Rows: a small envelope
// decrypted per process next to the `jose` C tool doing the same (process start dominates both),
// a 100-entry HAR file, and a 256 MiB file upload streamed through encrypt and decrypt with the
// peak resident memory of each process.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as codec from '../../packages/codec/dist/index.node.js';
import { formatMBps, formatMiB, formatRatio, formatSeconds, report } from './lib.mjs';

const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const MEASURE = fileURLToPath(new URL('../../packages/cli/test/helpers/measure-rss.mjs', import.meta.url));
const JOSE = process.env.JOSE_BIN ?? '/usr/bin/jose';
const SHARED = 'k3y-0f-16-bytes!';
const env = { PATH: process.env.PATH ?? '', JWE_KEY: SHARED };

function run(command, args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stderr) : reject(new Error(`${command} ${args[0]} exited ${code}: ${stderr}`)),
    );
    if (input !== undefined) child.stdin.end(input);
  });
}

/**
 * Wall and CPU seconds per run of a command, all its processes included: `runs` runs in one bash
 * loop, timed by bash's `times`.
 */
function perRun(command, runs) {
  const quoted = command.map((part) => `'${part}'`).join(' ');
  const start = performance.now();
  const run = spawnSync('bash', ['-c', `for i in $(seq ${runs}); do ${quoted} > /dev/null; done; times`], {
    env,
    encoding: 'utf8',
  });
  const seconds = (performance.now() - start) / 1000 / runs;
  if (run.status !== 0) throw new Error(`${command[0]} failed: ${run.stderr}`);
  const cpu = run.stdout
    .trim()
    .split('\n')
    .slice(-2)
    .flatMap((line) => line.trim().split(/\s+/))
    .reduce((sum, t) => {
      const [, m, sec] = /(\d+)m([\d.]+)s/.exec(t);
      return sum + Number(m) * 60 + Number(sec);
    }, 0);
  return { ms: seconds * 1000, cpuMs: (cpu / runs) * 1000 };
}

async function msPerRun(fn, runs) {
  await fn();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  return (performance.now() - start) / runs;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-cli-'));
const rows = [];
try {
  // 1. One small envelope, one process each.
  const envelope = JSON.stringify(await codec.encryptJson({ aadhaar_number: '123412341234' }, SHARED));
  const envelopePath = join(dir, 'envelope.json');
  await writeFile(envelopePath, envelope);
  const jwkPath = join(dir, 'key.jwk');
  await writeFile(
    jwkPath,
    JSON.stringify({ kty: 'oct', k: Buffer.from(SHARED + SHARED).toString('base64url') }),
  );
  perRun([process.execPath, BIN, 'decrypt', envelopePath], 1); // warm the file system cache
  const ours = perRun([process.execPath, BIN, 'decrypt', envelopePath], 15);
  const bareNode = perRun([process.execPath, '-e', '0'], 15);
  const joseC = perRun([JOSE, 'jwe', 'dec', '-i', envelopePath, '-k', jwkPath], 15);
  rows.push({
    case: 'decrypt 1 small envelope (process start included)',
    ours: `${ours.ms.toFixed(0)} ms, CPU ${ours.cpuMs.toFixed(0)} ms`,
    reference: `jose C ${joseC.ms.toFixed(1)} ms, CPU ${joseC.cpuMs.toFixed(1)} ms`,
    ratio: formatRatio(joseC.ms / ours.ms),
    cpu_ratio: formatRatio(joseC.cpuMs / ours.cpuMs),
    target: '',
    notes: `ratios: ours faster by (below 1: slower); bare Node start-up alone: ${bareNode.ms.toFixed(0)} ms, CPU ${bareNode.cpuMs.toFixed(0)} ms; jose C is a native binary`,
  });

  // 2. A HAR file with 100 encrypted request/response pairs.
  const entries = [];
  for (let i = 0; i < 100; i++) {
    const request = JSON.stringify(
      await codec.encryptJson({ aadhaar_number: String(i).padStart(12, '0') }, SHARED, { kid: 'k1' }),
    );
    const response = JSON.stringify(await codec.encryptJson({ txn_id: `t-${i}` }, SHARED));
    entries.push({
      request: {
        method: 'POST',
        url: `https://api.example/init/${i}`,
        headers: [{ name: 'X-Encryption', value: 'JWE' }],
        postData: { mimeType: 'application/json', text: request },
      },
      response: { status: 200, headers: [], content: { mimeType: 'application/json', text: response } },
    });
  }
  const harPath = join(dir, 'session.har');
  await writeFile(harPath, JSON.stringify({ log: { version: '1.2', entries } }));
  const har = await msPerRun(() => run(process.execPath, [BIN, 'decrypt', harPath, '--json']), 5);
  rows.push({
    case: 'decrypt a HAR file, 200 encrypted bodies',
    ours: `${har.toFixed(0)} ms`,
    reference: '',
    ratio: '',
    target: '',
    notes: 'one process',
  });

  // 3. A 256 MiB upload through the binary, streamed.
  const size = 256 * 2 ** 20;
  const filePath = join(dir, 'recording.bin');
  const block = randomBytes(2 ** 20);
  const out = createWriteStream(filePath);
  for (let i = 0; i < size / block.length; i++) {
    block.writeUInt32BE(i, 0);
    if (!out.write(Buffer.from(block))) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  const rss = (stderr) => Number(/MAX_RSS_KB=(\d+)/.exec(stderr)?.[1]) * 1024;
  const envelopeOut = join(dir, 'upload.json');
  let start = performance.now();
  const encStderr = await run(process.execPath, [
    MEASURE,
    'encrypt',
    '--file',
    filePath,
    '--out',
    envelopeOut,
  ]);
  const encSeconds = (performance.now() - start) / 1000;
  const restored = join(dir, 'restored.bin');
  start = performance.now();
  const decStderr = await run(process.execPath, [MEASURE, 'decrypt', envelopeOut, '--out', restored]);
  const decSeconds = (performance.now() - start) / 1000;
  if ((await stat(restored)).size !== size) throw new Error('restored file has the wrong size');
  const hashOf = async (path) => {
    const hash = createHash('sha256');
    for await (const chunk of (await import('node:fs')).createReadStream(path)) hash.update(chunk);
    return hash.digest('hex');
  };
  if ((await hashOf(filePath)) !== (await hashOf(restored))) throw new Error('restored file differs');
  for (const [name, seconds, stderr, note] of [
    ['encrypt --file', encSeconds, encStderr, ''],
    ['decrypt --out', decSeconds, decStderr, '; SHA-256 matches'],
  ]) {
    rows.push({
      case: `${name} 256 MiB (process, disk to disk)`,
      ours: `${formatSeconds(seconds)} (${formatMBps(size / seconds)}), peak RSS ${formatMiB(rss(stderr))}`,
      reference: '',
      ratio: '',
      cpu_ratio: '',
      target: 'peak RSS < 150 MB',
      met: rss(stderr) < 150e6,
      notes: `one process${note}`,
    });
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

report('CLI (jwe-transport binary)', rows);
