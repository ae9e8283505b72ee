// One-shot codec vs npm `jose` and `node-jose`: 1 KiB JSON, then 64 KiB, 1 MiB and 16 MiB file
// envelopes. Every contender does the same user-visible job: for files, from bytes to the
// `{"file": base64}` envelope and back to bytes; for JSON, from a value to an envelope and back.
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import * as jose from 'jose';
import * as codec from '../../packages/codec/dist/index.node.js';
import { compare, formatMBps, formatOps, formatRatio, report } from './lib.mjs';

const require = createRequire(import.meta.url);
const nodeJose = require('node-jose');

const SHARED = 'k3y-0f-16-bytes!';
const KEY = codec.deriveKey(SHARED);
const PINNED = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A128CBC-HS256'] };
const nodeJoseKey = await nodeJose.JWK.asKey({ kty: 'oct', k: Buffer.from(KEY).toString('base64url') });

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const joseEncrypt = (bytes) =>
  new jose.FlattenedEncrypt(bytes).setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' }).encrypt(KEY);
const filePlaintext = (file) => utf8.encode(JSON.stringify({ file: Buffer.from(file).toString('base64') }));
const fileFromPlaintext = (bytes) => Buffer.from(JSON.parse(fromUtf8.decode(bytes)).file, 'base64');
const nodeJoseEncrypt = (bytes) =>
  nodeJose.JWE.createEncrypt(
    { format: 'flattened', contentAlg: 'A128CBC-HS256', fields: { alg: 'dir' } },
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

const rows = [];
const quick = process.env.BENCH_QUICK === '1';
for (const c of cases) {
  const envelope = await c.ours.encrypt();
  // Each contender must read what the others write; a mismatch would make the numbers meaningless.
  await c.jose.decrypt(envelope);
  await c.ours.decrypt(await c.jose.encrypt());
  const ms = quick ? 600 : c.bytes >= 16 * 1024 * 1024 ? 6000 : 3000;
  for (const op of ['encrypt', 'decrypt']) {
    const run = (impl) => (op === 'encrypt' ? impl.encrypt() : impl.decrypt(envelope));
    const vsJose = await compare(
      () => run(c.ours),
      () => run(c.jose),
      { ms, rounds: 3 },
    );
    const vsNodeJose = await compare(
      () => run(c.ours),
      () => run(c.nodeJose),
      { ms: ms / 2, rounds: 1 },
    );
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
