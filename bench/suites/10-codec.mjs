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
// base64url of the ciphertext, and back): what any implementation must spend at least.
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import * as codec from '../../packages/codec/dist/index.node.js';
import { formatMiB, formatOps, formatRatio, measure, report } from './lib.mjs';

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

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
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

if (process.argv.includes('--memory')) {
  const file = files.get(16 * MiB);
  const baseline = process.memoryUsage().rss;
  await codec.decryptFile(await codec.encryptFile(file, SHARED), SHARED);
  process.stdout.write(`${process.resourceUsage().maxRSS * 1024 - baseline}\n`);
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

// Memory for one 16 MiB envelope each way, in a fresh process: peak RSS over the RSS it had
// with the file already in memory.
const memory = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--memory'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const grown = Number(memory.stdout.trim().split('\n').pop());
rows.push({
  case: '16 MiB file encrypt + decrypt, memory',
  ours: `+${(grown / MiB).toFixed(0)} MiB peak RSS`,
  reference: '',
  ratio: '',
  cpu_ratio: '',
  target: '',
  notes: `${(grown / (16 * MiB)).toFixed(1)}x the file size, over the baseline with the file loaded`,
});

report(
  `Codec one-shot (${codec.backendName} back end) vs jose ${require('jose/package.json').version}`,
  rows,
);
