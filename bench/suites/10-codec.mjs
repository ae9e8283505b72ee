// One-shot codec against npm `jose` and against the floor of its own primitives.
//
// jose rows: 1 KiB JSON, 1 MiB and 16 MiB files, each direction. Both sides do the same
// user-visible job: for files, from bytes to the `{"file": base64}` envelope and back to bytes;
// for JSON, from a value to an envelope and back. jose runs in a process of its own (this file
// with `--peer jose`) that loads only the codec and jose, so neither warms or skews the other.
// Targets are on CPU time, the steadier measure on a shared machine.
//
// Floor rows: the codec's CPU time for a file envelope against the same passes called directly
// through node:crypto and Buffer in a loop (base64 of the file, AES-128-CBC, HMAC-SHA-256,
// base64url of the ciphertext, and back): what any implementation must spend at least. The
// 1 KiB JSON rows do the same for encryptJson/decryptJson (JSON and UTF-8 around the passes), in
// a child under this Node and another under Node 24 (BENCH_NODE24, else npm's node@24 via npx).
//
// Memory rows: one encryptFile then decryptFile of 16 and 64 MiB, each in a fresh process, as the
// kernel's RSS high-water mark over the baseline with the file loaded; jose beside it as
// information.
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import * as codec from '../../packages/codec/dist/index.node.js';
import { formatMiB, formatOps, formatRatio, measure, median, report } from './lib.mjs';

const require = createRequire(import.meta.url);
const SHARED = 'k3y-0f-16-bytes!';
const KEY = codec.deriveKey(SHARED);
const PINNED = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A128CBC-HS256'] };
const quick = process.env.BENCH_QUICK === '1';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const joseEncrypt = (bytes) =>
  new jose.FlattenedEncrypt(bytes).setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' }).encrypt(KEY);
const filePlaintext = (file) => utf8.encode(JSON.stringify({ file: Buffer.from(file).toString('base64') }));
const fileFromPlaintext = (bytes) => Buffer.from(JSON.parse(fromUtf8.decode(bytes)).file, 'base64');

const json = { aadhaar_number: '123412341234', note: 'x'.repeat(980) };
const MiB = 2 ** 20;
const files = new Map([
  [MiB, randomBytes(MiB)],
  [16 * MiB, randomBytes(16 * MiB)],
]);
const cases = [
  {
    name: '1 KiB JSON',
    size: 1024,
    target: 20,
    ms: 3000,
    ours: { encrypt: () => codec.encryptJson(json, SHARED), decrypt: (e) => codec.decryptJson(e, SHARED) },
    jose: {
      encrypt: () => joseEncrypt(utf8.encode(JSON.stringify(json))),
      decrypt: async (e) =>
        JSON.parse(fromUtf8.decode((await jose.flattenedDecrypt(e, KEY, PINNED)).plaintext)),
    },
  },
  ...[
    [MiB, 6, 3000],
    [16 * MiB, 8, 6000],
  ].map(([size, target, ms]) => {
    const file = files.get(size);
    return {
      name: `${formatMiB(size)} file`,
      size,
      target,
      ms,
      ours: { encrypt: () => codec.encryptFile(file, SHARED), decrypt: (e) => codec.decryptFile(e, SHARED) },
      jose: {
        encrypt: () => joseEncrypt(filePlaintext(file)),
        decrypt: async (e) => fileFromPlaintext((await jose.flattenedDecrypt(e, KEY, PINNED)).plaintext),
      },
    };
  }),
];
const msFor = (c) => (quick ? 600 : c.ms);
// Rounds must stay long enough to hold several of the slowest calls (jose at 16 MiB: a few per second).
const roundsFor = (size) => (size >= 16 * MiB ? 3 : size >= MiB ? 5 : 7);

/** The range of per-round ratios, so a reader can see how much the rounds agreed. */
const spread = (ratios) => `${formatRatio(Math.min(...ratios))}–${formatRatio(Math.max(...ratios))}`;

/**
 * Interleaved rounds of ours and the reference; which side goes first alternates. A full GC
 * before each measurement (the suite runs with --expose-gc) means neither side is billed for
 * collecting the other's garbage. Ratios are taken within each round, where both sides share the
 * machine's state of the moment, and the median round is kept. Returns medians of the rates
 * (calls per second) and of the per-round ratios ours/reference.
 */
async function compareRounds(ours, reference, { ms, rounds }) {
  const pairs = [];
  for (let round = 0; round < rounds; round++) {
    const pair = {};
    for (const side of round % 2 === 0 ? ['ours', 'reference'] : ['reference', 'ours']) {
      globalThis.gc?.();
      pair[side] = await measure(side === 'ours' ? ours : reference, ms / rounds);
    }
    pairs.push(pair);
  }
  return {
    ours: median(pairs.map((p) => p.ours.wall)),
    reference: median(pairs.map((p) => p.reference.wall)),
    wallRatio: median(pairs.map((p) => p.ours.wall / p.reference.wall)),
    cpuRatio: median(pairs.map((p) => p.ours.cpu / p.reference.cpu)),
    cpuRatios: pairs.map((p) => p.ours.cpu / p.reference.cpu),
  };
}

/** Interleaved rounds of ours and jose for every case and direction, in this process. */
async function measureJose() {
  const results = {};
  for (const c of cases) {
    const envelope = await c.ours.encrypt();
    // Each side must read what the other writes; a mismatch would make the numbers meaningless.
    await c.jose.decrypt(envelope);
    await c.ours.decrypt(await c.jose.encrypt());
    for (const op of ['encrypt', 'decrypt']) {
      const run = (impl) => (op === 'encrypt' ? impl.encrypt() : impl.decrypt(envelope));
      results[`${c.name} ${op}`] = await compareRounds(
        () => run(c.ours),
        () => run(c.jose),
        { ms: msFor(c), rounds: roundsFor(c.size) },
      );
    }
  }
  return results;
}

// The floor: the same passes, called directly. AAD is the protected header; AL its length in bits.
const PROTECTED = codec.PROTECTED_COMPACT;
const AAD = Buffer.from(PROTECTED, 'latin1');
const AL = Buffer.alloc(8);
AL.writeUInt32BE(AAD.length * 8, 4);
const MAC_KEY = Buffer.from(KEY.subarray(0, 16));
const ENC_KEY = Buffer.from(KEY.subarray(16, 32));
const macOf = (iv, ciphertext) =>
  createHmac('sha256', MAC_KEY).update(AAD).update(iv).update(ciphertext).update(AL).digest().subarray(0, 16);

function floorEncryptFile(file) {
  const payload = Buffer.from(`{"file":"${file.toString('base64')}"}`, 'latin1');
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', ENC_KEY, iv);
  const ciphertext = Buffer.concat([cipher.update(payload), cipher.final()]);
  return {
    protected: PROTECTED,
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: macOf(iv, ciphertext).toString('base64url'),
  };
}

function floorDecryptFile(envelope) {
  const iv = Buffer.from(envelope.iv, 'base64url');
  const ciphertext = Buffer.from(envelope.ciphertext, 'base64url');
  if (!timingSafeEqual(macOf(iv, ciphertext), Buffer.from(envelope.tag, 'base64url'))) throw new Error('tag');
  const decipher = createDecipheriv('aes-128-cbc', ENC_KEY, iv);
  const payload = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return Buffer.from(payload.toString('latin1', 9, payload.length - 2), 'base64');
}

/** The JSON envelope by hand: JSON.stringify, UTF-8, AES-CBC, HMAC, base64url. */
function floorEncryptJson(value) {
  const plaintext = Buffer.from(JSON.stringify(value), 'utf8');
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', ENC_KEY, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    protected: PROTECTED,
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: macOf(iv, ciphertext).toString('base64url'),
  };
}

/** And back: base64url, HMAC checked in constant time, AES-CBC, UTF-8, JSON.parse. */
function floorDecryptJson(envelope) {
  const iv = Buffer.from(envelope.iv, 'base64url');
  const ciphertext = Buffer.from(envelope.ciphertext, 'base64url');
  if (!timingSafeEqual(macOf(iv, ciphertext), Buffer.from(envelope.tag, 'base64url'))) throw new Error('tag');
  const decipher = createDecipheriv('aes-128-cbc', ENC_KEY, iv);
  return JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8'));
}

/**
 * 1 KiB JSON calls against the same work by hand, in this process (the suite runs it once under
 * its own Node and once under Node 24). Prints the interleaved rounds' medians as JSON.
 */
async function smallChild() {
  const envelope = await codec.encryptJson(json, SHARED);
  // Each side reads what the other writes, so both did the same work.
  if (JSON.stringify(floorDecryptJson(envelope)) !== JSON.stringify(json)) throw new Error('floor: no');
  if (JSON.stringify(await codec.decryptJson(floorEncryptJson(json), SHARED)) !== JSON.stringify(json))
    throw new Error('the codec does not read the floor envelope');
  const ms = quick ? 600 : 3000;
  const result = { node: process.version };
  result.encrypt = await compareRounds(
    () => codec.encryptJson(json, SHARED),
    () => floorEncryptJson(json),
    { ms, rounds: 7 },
  );
  result.decrypt = await compareRounds(
    () => codec.decryptJson(envelope, SHARED),
    () => floorDecryptJson(envelope),
    { ms, rounds: 7 },
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv.includes('--small')) {
  await smallChild();
  process.exit(0);
}

/** A field of /proc/self/status in bytes (VmRSS, VmHWM). */
const procStatus = (field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))[1]) *
  1024;

/**
 * One encryption then decryption of a file of `mib` MiB by `impl` (ours or jose), in this fresh
 * process. The file is allocated and a small call has loaded every code path before the baseline
 * is taken (after two full GCs). The peak is the kernel's high-water mark of RSS (VmHWM), reset to
 * the current RSS by writing 5 to /proc/self/clear_refs just before the calls: the calls run
 * synchronously for most of their length, so a timer could not sample inside them. A 1 ms interval
 * samples RSS too, as a cross-check that can only see less. Prints JSON with both, in bytes.
 */
async function memoryChild(impl, mib) {
  const file = randomBytes(mib * MiB);
  const run =
    impl === 'jose'
      ? async (bytes) =>
          fileFromPlaintext(
            (await jose.flattenedDecrypt(await joseEncrypt(filePlaintext(bytes)), KEY, PINNED)).plaintext,
          )
      : async (bytes) => codec.decryptFile(await codec.encryptFile(bytes, SHARED), SHARED);
  await run(randomBytes(1000));
  globalThis.gc();
  globalThis.gc();
  const baseline = procStatus('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5');
  let sampled = 0;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage.rss());
  }, 1);
  const back = await run(file);
  const peak = procStatus('VmHWM');
  clearInterval(timer);
  if (!Buffer.from(back).equals(file)) throw new Error(`${impl}: the round trip did not give the file back`);
  process.stdout.write(
    `${JSON.stringify({ grown: peak - baseline, sampled: Math.max(0, sampled - baseline) })}\n`,
  );
}

if (process.argv.includes('--memory')) {
  const at = process.argv.indexOf('--memory');
  await memoryChild(process.argv[at + 1], Number(process.argv[at + 2]));
  process.exit(0);
}

if (process.argv.includes('--peer')) {
  process.stdout.write(`${JSON.stringify(await measureJose())}\n`);
  process.exit(0);
}

const rows = [];
const child = spawnSync(
  process.execPath,
  [...process.execArgv, fileURLToPath(import.meta.url), '--peer', 'jose'],
  {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  },
);
if (child.status !== 0) throw new Error(`the jose comparison failed (exit ${child.status})`);
const byJose = JSON.parse(child.stdout.trim().split('\n').pop());
for (const c of cases) {
  for (const op of ['encrypt', 'decrypt']) {
    const m = byJose[`${c.name} ${op}`];
    const cpuRatio = m.cpuRatio;
    rows.push({
      case: `${c.name} ${op}`,
      ours: formatOps(m.ours),
      reference: `jose ${formatOps(m.reference)}`,
      ratio: formatRatio(m.wallRatio),
      cpu_ratio: formatRatio(cpuRatio),
      target: `CPU ≥ ${c.target}x jose`,
      met: cpuRatio >= c.target,
      notes: `ratios: ours faster by; CPU ratio ${spread(m.cpuRatios)} across ${m.cpuRatios.length} interleaved rounds (median shown)`,
    });
  }
}

for (const [size, file] of files) {
  const envelope = await codec.encryptFile(file, SHARED);
  if (!floorDecryptFile(envelope).equals(file)) throw new Error('the floor does not read our envelope');
  if (!Buffer.from(await codec.decryptFile(floorEncryptFile(file), SHARED)).equals(file)) {
    throw new Error('the codec does not read the floor envelope');
  }
  for (const op of ['encrypt', 'decrypt']) {
    const m = await compareRounds(
      () => (op === 'encrypt' ? codec.encryptFile(file, SHARED) : codec.decryptFile(envelope, SHARED)),
      () => (op === 'encrypt' ? floorEncryptFile(file) : floorDecryptFile(envelope)),
      { ms: quick ? 600 : size >= 16 * MiB ? 6000 : 3000, rounds: roundsFor(size) },
    );
    // Here the ratios are ours over the floor: the cost of everything the codec adds.
    const cpuRatio = 1 / m.cpuRatio;
    rows.push({
      case: `${formatMiB(size)} file ${op}, vs its primitives`,
      ours: formatOps(m.ours),
      reference: `primitives ${formatOps(m.reference)}`,
      ratio: formatRatio(1 / m.wallRatio),
      cpu_ratio: formatRatio(cpuRatio),
      target: 'CPU ≤ 1.5x primitives',
      met: cpuRatio <= 1.5,
      notes: `ratios: ours costs (lower is better); CPU ratio ${spread(m.cpuRatios.map((r) => 1 / r))} across ${m.cpuRatios.length} interleaved rounds (median shown)`,
    });
  }
}

// 1 KiB JSON calls against their primitives, under this Node and under Node 24, each in a child.
/** Node 24's binary: BENCH_NODE24, else the npm `node@24` package through npx, as CI gets it. */
function node24() {
  if (process.env.BENCH_NODE24) return process.env.BENCH_NODE24;
  // npx's own warnings (about pnpm's npm_config_* settings) would only clutter the bench output.
  const found = spawnSync('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return found.status === 0 ? found.stdout.trim() : undefined;
}
const SMALL_TARGET = 1.5;
const nodes = [process.execPath];
if (process.versions.node.split('.')[0] !== '24') nodes.push(node24());
for (const node of nodes) {
  const run =
    node === undefined
      ? undefined
      : spawnSync(node, ['--expose-gc', fileURLToPath(import.meta.url), '--small'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        });
  if (run?.status !== 0) {
    rows.push({
      case: '1 KiB JSON encrypt and decrypt on Node 24, vs its primitives',
      target: `CPU ≤ ${SMALL_TARGET}x primitives`,
      met: false,
      notes: `not measured: ${run ? `the child failed (exit ${run.status})` : 'Node 24 could not be found (set BENCH_NODE24)'}`,
    });
    continue;
  }
  const small = JSON.parse(run.stdout.trim().split('\n').pop());
  for (const op of ['encrypt', 'decrypt']) {
    const m = small[op];
    const cpuRatio = 1 / m.cpuRatio;
    rows.push({
      case: `1 KiB JSON ${op} (${op}Json) on Node ${small.node}, vs its primitives`,
      ours: formatOps(m.ours),
      reference: `by hand ${formatOps(m.reference)}`,
      ratio: formatRatio(1 / m.wallRatio),
      cpu_ratio: formatRatio(cpuRatio),
      target: `CPU ≤ ${SMALL_TARGET}x primitives`,
      met: cpuRatio <= SMALL_TARGET,
      notes:
        'ratios: ours costs (lower is better); by hand = JSON, UTF-8, createCipheriv, createHmac, base64url ' +
        `in the same process; CPU ratio ${spread(m.cpuRatios.map((r) => 1 / r))} across ${m.cpuRatios.length} interleaved rounds (median shown)`,
    });
  }
}

// Memory for one envelope each way, each measurement in a fresh process (see memoryChild).
function memoryOf(impl, mib) {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--memory', impl, String(mib)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0) throw new Error(`the ${impl} memory measurement failed (exit ${run.status})`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}
const MEMORY_TARGET = 6;
for (const mib of [16, 64]) {
  const ours = memoryOf('ours', mib);
  const theirs = memoryOf('jose', mib);
  const times = (bytes) => bytes / (mib * MiB);
  rows.push({
    case: `${mib} MiB file encrypt + decrypt, peak memory`,
    ours: `+${(ours.grown / MiB).toFixed(0)} MiB (${times(ours.grown).toFixed(1)}x the file)`,
    reference: `jose +${(theirs.grown / MiB).toFixed(0)} MiB (${times(theirs.grown).toFixed(1)}x), information`,
    ratio: '',
    cpu_ratio: '',
    target: `peak ≤ ${MEMORY_TARGET}x the file size`,
    met: times(ours.grown) <= MEMORY_TARGET,
    notes:
      'RSS high-water mark (VmHWM, reset through /proc/self/clear_refs) over the RSS with the file loaded, ' +
      `fresh process per measurement; a 1 ms timer saw at most +${(ours.sampled / MiB).toFixed(0)} MiB ` +
      '(it cannot run inside the synchronous calls)',
  });
}

report(
  `Codec one-shot (${codec.backendName} back end) vs jose ${require('jose/package.json').version}`,
  rows,
);
