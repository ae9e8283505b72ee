// One-shot codec vs npm `jose` and `node-jose`: 1 KiB JSON, then 64 KiB, 1 MiB and 16 MiB file
// envelopes. Every contender does the same user-visible job: for files, from bytes to the
// `{"file": base64}` envelope and back to bytes; for JSON, from a value to an envelope and back.
// Each peer is compared in a process of its own (this file with the argument `--peer NAME`), which
// loads only the codec and that peer: with node-jose loaded beside them, the 1 MiB rows moved by
// about 15% (the codec slower, jose faster), so sharing a process skewed the comparison.

import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import * as codec from '../../packages/codec/dist/index.node.js';
import { compare, formatMBps, formatOps, formatRatio, report } from './lib.mjs';

const require = createRequire(import.meta.url);
const peerIndex = process.argv.indexOf('--peer');
const peer = peerIndex === -1 ? undefined : process.argv[peerIndex + 1];
const nodeJose = peer === 'node-jose' ? require('node-jose') : undefined;

const SHARED = 'k3y-0f-16-bytes!';
const KEY = codec.deriveKey(SHARED);
const PINNED = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A128CBC-HS256'] };
const nodeJoseKey = await nodeJose?.JWK.asKey({ kty: 'oct', k: Buffer.from(KEY).toString('base64url') });

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const joseEncrypt = (bytes) =>
  new jose.FlattenedEncrypt(bytes).setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' }).encrypt(KEY);
const filePlaintext = (file) => utf8.encode(JSON.stringify({ file: Buffer.from(file).toString('base64') }));
const fileFromPlaintext = (bytes) => Buffer.from(JSON.parse(fromUtf8.decode(bytes)).file, 'base64');
const nodeJoseEncrypt = (bytes) =>
  nodeJose.JWE.createEncrypt(
    { format: 'flattened', contentAlg: 'A128CBC-HS256', fields: { alg: 'dir', enc: 'A128CBC-HS256' } },
    nodeJoseKey,
  )
    .update(Buffer.from(bytes))
    .final();
const nodeJoseDecrypt = async (envelope) =>
  (await nodeJose.JWE.createDecrypt(nodeJoseKey).decrypt(envelope)).plaintext;

const json = { aadhaar_number: '123412341234', note: 'x'.repeat(980) };
const cases = [
  {
    name: '1 KiB JSON',
    bytes: JSON.stringify(json).length,
    target: 15,
    ours: { encrypt: () => codec.encryptJson(json, SHARED), decrypt: (e) => codec.decryptJson(e, SHARED) },
    jose: {
      encrypt: () => joseEncrypt(utf8.encode(JSON.stringify(json))),
      decrypt: async (e) =>
        JSON.parse(fromUtf8.decode((await jose.flattenedDecrypt(e, KEY, PINNED)).plaintext)),
    },
    nodeJose: {
      encrypt: () => nodeJoseEncrypt(utf8.encode(JSON.stringify(json))),
      decrypt: async (e) => JSON.parse(fromUtf8.decode(await nodeJoseDecrypt(e))),
    },
  },
  ...[
    [64 * 1024, '64 KiB', undefined],
    [1024 * 1024, '1 MiB', 10],
    [16 * 1024 * 1024, '16 MiB', 10],
  ].map(([size, label, target]) => {
    const file = randomBytes(size);
    return {
      name: `${label} file`,
      bytes: size,
      target,
      ours: { encrypt: () => codec.encryptFile(file, SHARED), decrypt: (e) => codec.decryptFile(e, SHARED) },
      jose: {
        encrypt: () => joseEncrypt(filePlaintext(file)),
        decrypt: async (e) => fileFromPlaintext((await jose.flattenedDecrypt(e, KEY, PINNED)).plaintext),
      },
      nodeJose: {
        encrypt: () => nodeJoseEncrypt(filePlaintext(file)),
        decrypt: async (e) => fileFromPlaintext(await nodeJoseDecrypt(e)),
      },
    };
  }),
];

const quick = process.env.BENCH_QUICK === '1';
const msFor = (c) => (quick ? 600 : c.bytes >= 16 * 1024 * 1024 ? 6000 : 3000);

/** Interleaved rounds of ours and one peer for every case and direction, in this process. */
async function measurePeer(name) {
  // jose is the target's reference: three rounds of the full time; node-jose one shorter round.
  const [key, rounds, share] = name === 'jose' ? ['jose', 3, 1] : ['nodeJose', 1, 0.5];
  const results = {};
  for (const c of cases) {
    const envelope = await c.ours.encrypt();
    // Each contender must read what the others write; a mismatch would make the numbers meaningless.
    await c[key].decrypt(envelope);
    await c.ours.decrypt(await c[key].encrypt());
    for (const op of ['encrypt', 'decrypt']) {
      const run = (impl) => (op === 'encrypt' ? impl.encrypt() : impl.decrypt(envelope));
      results[`${c.name} ${op}`] = await compare(
        () => run(c.ours),
        () => run(c[key]),
        { ms: msFor(c) * share, rounds },
      );
    }
  }
  return results;
}

/** The same measurement in a child process that loads only the codec and `name`. */
function measurePeerApart(name) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--peer', name], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`the ${name} comparison failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

if (peer !== undefined) {
  process.stdout.write(`${JSON.stringify(await measurePeer(peer))}\n`);
  process.exit(0);
}

const byJose = measurePeerApart('jose');
const byNodeJose = measurePeerApart('node-jose');
const rows = [];
for (const c of cases) {
  for (const op of ['encrypt', 'decrypt']) {
    const vsJose = byJose[`${c.name} ${op}`];
    const vsNodeJose = byNodeJose[`${c.name} ${op}`];
    const ratio = vsJose.ours / vsJose.reference;
    const speed = (ops) =>
      c.bytes >= 64 * 1024 ? `${formatOps(ops)} (${formatMBps(ops * c.bytes)})` : formatOps(ops);
    rows.push({
      case: `${c.name} ${op}`,
      ours: speed(vsJose.ours),
      reference: `jose ${speed(vsJose.reference)}; node-jose ${speed(vsNodeJose.reference)}`,
      ratio: `${formatRatio(ratio)} jose, ${formatRatio(vsNodeJose.ours / vsNodeJose.reference)} node-jose`,
      target: c.target ? `≥ ${c.target}x jose${ratio >= c.target ? '' : ' (MISSED)'}` : '',
      notes: `per CPU-second: ${formatRatio(vsJose.oursCpu / vsJose.referenceCpu)} jose${c.bytes >= 64 * 1024 ? '; MB/s of file bytes' : ''}`,
    });
  }
}

// Memory for one 16 MiB envelope: peak RSS growth over the baseline, as a multiple of the file size.
// In steady state, as in a server: a process's first large call starts the codec's helper thread
// and runs on one thread meanwhile, so a few large calls come first (their shared buffer stays in
// the baseline).
for (let i = 0; i < 5; i++) {
  await codec.decryptFile(await codec.encryptFile(randomBytes(1024 * 1024), SHARED), SHARED);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
globalThis.gc?.();
const size = 16 * 1024 * 1024;
const file = randomBytes(size);
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 1);
const envelope = await codec.encryptFile(file, SHARED);
peak = Math.max(peak, process.memoryUsage().rss);
await codec.decryptFile(envelope, SHARED);
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(sampler);
rows.push({
  case: '16 MiB file encrypt + decrypt, memory',
  ours: `+${((peak - before) / 2 ** 20).toFixed(0)} MiB RSS`,
  reference: '',
  ratio: `${((peak - before) / size).toFixed(1)}x file size`,
  target: 'small multiple of the file size',
  notes: 'peak RSS over baseline, sampled every 1 ms',
});

report(
  `Codec one-shot (Node back end ${codec.backendName}) vs jose ${require('jose/package.json').version} and node-jose`,
  rows,
);
