// Streaming file envelopes (encryptFileStream / decryptFileStream, file to file) against a
// coreutils + openssl pipeline doing the same work in the same run: base64 of the file inside
// {"file":"..."}, AES-128-CBC, HMAC-SHA-256 over AAD || IV || ciphertext || AL, base64url of the
// ciphertext, and back. Sizes 256 MiB and 1 GiB (BENCH_STREAM_MIB=256,1024), made on the fly in
// the OS temp folder and removed after.
//
// Every measured run is one `bash -c '...; times'`, ours (`node this-file child ...`) and the
// pipeline alike, so both pay for starting their processes and both report the CPU time of all
// their processes and threads (bash's `times`). Each case runs BENCH_STREAM_RUNS times (default
// 2), ours and the pipeline interleaved; the table shows the best wall time of each, the CPU time
// of that run, and ours' highest peak RSS (target < 150 MB).
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { formatMBps, formatMiB, formatRatio, formatSeconds, report } from './lib.mjs';

const SHARED = 'bench-shared-k16';
const KEY = Buffer.from(SHARED + SHARED);
const MiB = 2 ** 20;
const RSS_LIMIT = 150e6;
const self = fileURLToPath(import.meta.url);
const codecUrl = new URL('../../packages/codec/dist/index.node.js', import.meta.url);
const PROTECTED = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0';

async function makeFile(path, size) {
  // Random 1 MiB blocks, each a little different, so nothing compresses or dedupes.
  const block = randomBytes(MiB);
  await pipeline(
    Readable.from(
      (function* () {
        for (let left = size, i = 0; left > 0; left -= MiB, i++) {
          block.writeUInt32LE(i, 0);
          yield Buffer.from(block.subarray(0, Math.min(MiB, left)));
        }
      })(),
    ),
    createWriteStream(path),
  );
}

function sha256File(path) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: MiB })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** Ours, in the child: one file through the codec; prints the peak RSS in bytes. */
async function child(kind, input, output) {
  const codec = await import(codecUrl);
  if (kind === 'encrypt') {
    await pipeline(codec.encryptFileStream(createReadStream(input), SHARED), createWriteStream(output));
  } else {
    await codec.decryptFileStream(createReadStream(input), SHARED, { to: output });
  }
  process.stdout.write(`MAX_RSS=${process.resourceUsage().maxRSS * 1024}\n`);
}

const hexEscape = (bytes) => [...bytes].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
const AL = Buffer.alloc(8);
AL.writeUInt32BE(PROTECTED.length * 8, 4);
const encKey = KEY.subarray(16).toString('hex');
const macKey = KEY.subarray(0, 16).toString('hex');
// The MAC's input around the ciphertext, for printf (AAD and IV before it, AL after it).
const macHead = (iv) => `${PROTECTED}${hexEscape(iv)}`;

/**
 * The pipeline's encryption: the payload is built by printf and base64, encrypted by openssl enc,
 * MACed by openssl dgst from a FIFO that tee feeds, and encoded by basenc; the envelope is written
 * in our member order, its tag appended once the MAC has finished.
 */
function pipelineEncrypt(input, output, dir) {
  const iv = randomBytes(16);
  return `set -euo pipefail
fifo=${dir}/mac.fifo; rm -f "$fifo"; mkfifo "$fifo"
{ printf '${macHead(iv)}'; cat "$fifo"; printf '${hexEscape(AL)}'; } \\
  | openssl dgst -sha256 -mac HMAC -macopt hexkey:${macKey} -r > ${dir}/mac.hex &
{ printf '{"file":"'; base64 -w0 '${input}'; printf '"}'; } \\
  | openssl enc -aes-128-cbc -K ${encKey} -iv ${iv.toString('hex')} \\
  | tee "$fifo" \\
  | { printf '{"protected":"${PROTECTED}","iv":"${iv.toString('base64url')}","ciphertext":"'; basenc --base64url -w0 | tr -d '='; } > '${output}'
wait
tag=$(head -c 32 ${dir}/mac.hex | xxd -r -p | basenc --base64url | tr -d '=')
printf '","tag":"%s"}' "$tag" >> '${output}'`;
}

/**
 * The pipeline's decryption of our envelope: the ciphertext member is cut out by offset (its
 * start found in the first bytes, the tag member's length known), decoded by basenc, MACed by
 * openssl dgst from a FIFO, decrypted by openssl enc -d, its payload framing cut off by tail and
 * head, decoded by base64 -d; the tag is compared at the end.
 */
function pipelineDecrypt(input, output, dir, envelopeHead, envelopeSize) {
  const start = envelopeHead.indexOf('"ciphertext":"') + '"ciphertext":"'.length;
  const ivText = /"iv":"([^"]+)"/.exec(envelopeHead)[1];
  const iv = Buffer.from(ivText, 'base64url');
  const tail = '","tag":"'.length + 22 + '"}'.length;
  const length = envelopeSize - start - tail;
  const padding = '='.repeat((4 - (length % 4)) % 4);
  return `set -euo pipefail
fifo=${dir}/mac.fifo; rm -f "$fifo"; mkfifo "$fifo"
{ printf '${macHead(iv)}'; cat "$fifo"; printf '${hexEscape(AL)}'; } \\
  | openssl dgst -sha256 -mac HMAC -macopt hexkey:${macKey} -r > ${dir}/mac.hex &
{ tail -c +${start + 1} '${input}' | head -c ${length}; printf '${padding}'; } \\
  | basenc --base64url -d \\
  | tee "$fifo" \\
  | openssl enc -d -aes-128-cbc -K ${encKey} -iv ${iv.toString('hex')} \\
  | tail -c +10 | head -c -2 | base64 -d > '${output}'
wait
expected=$(tail -c ${tail} '${input}' | cut -c 10-31)
actual=$(head -c 32 ${dir}/mac.hex | xxd -r -p | basenc --base64url | tr -d '=')
[ "$expected" = "$actual" ]`;
}

/** Runs a bash script and `times`; returns wall and CPU seconds (children included) and stdout. */
function timed(script) {
  const start = performance.now();
  const run = spawnSync('bash', ['-c', `${script}\ntimes`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`bench step failed (exit ${run.status}): ${script.slice(0, 200)}`);
  const lines = run.stdout.trim().split('\n');
  const toSeconds = (t) => {
    const [, m, s] = /(\d+)m([\d.]+)s/.exec(t);
    return Number(m) * 60 + Number(s);
  };
  const cpuSeconds = lines
    .slice(-2)
    .flatMap((line) => line.trim().split(/\s+/))
    .reduce((sum, t) => sum + toSeconds(t), 0);
  return { seconds, cpuSeconds, stdout: lines.slice(0, -2).join('\n') };
}

const ours = (kind, input, output) => {
  rmSync(output, { force: true });
  const m = timed(`'${process.execPath}' '${self}' child ${kind} '${input}' '${output}'`);
  return { ...m, maxRss: Number(/MAX_RSS=(\d+)/.exec(m.stdout)?.[1]) };
};

const RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 2);
const best = (runs) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

async function main() {
  const sizes = (process.env.BENCH_STREAM_MIB ?? '256,1024').split(',').map((n) => Number(n) * MiB);
  const dir = await mkdtemp(join(tmpdir(), 'jwe-bench-stream-'));
  const rows = [];
  try {
    for (const size of sizes) {
      const file = join(dir, 'file.bin');
      const envelope = join(dir, 'envelope.json');
      const back = join(dir, 'back.bin');
      const theirs = join(dir, 'pipeline.json');
      const theirsBack = join(dir, 'pipeline.bin');
      await makeFile(file, size);
      const fileHash = await sha256File(file);

      const encrypt = { ours: [], pipeline: [] };
      for (let i = 0; i < RUNS; i++) {
        encrypt.ours.push(ours('encrypt', file, envelope));
        rmSync(theirs, { force: true });
        encrypt.pipeline.push(timed(pipelineEncrypt(file, theirs, dir)));
      }
      // Each side reads the other's envelope, so both did the same work.
      const head = (await readFile(envelope)).subarray(0, 512).toString('latin1');
      const envelopeSize = (await stat(envelope)).size;
      const decrypt = { ours: [], pipeline: [] };
      for (let i = 0; i < RUNS; i++) {
        decrypt.ours.push(ours('decrypt', envelope, back));
        rmSync(theirsBack, { force: true });
        decrypt.pipeline.push(timed(pipelineDecrypt(envelope, theirsBack, dir, head, envelopeSize)));
      }
      const oursSame = (await sha256File(back)) === fileHash;
      const theirsSame = (await sha256File(theirsBack)) === fileHash;
      ours('decrypt', theirs, back);
      const crossSame = (await sha256File(back)) === fileHash;

      for (const [name, m, check] of [
        [
          'encryptFileStream',
          encrypt,
          `our codec decrypts the pipeline's envelope: ${crossSame ? 'yes' : 'NO'}`,
        ],
        [
          'decryptFileStream',
          decrypt,
          `both outputs match the file (SHA-256): ${oursSame && theirsSame ? 'yes' : 'NO'}`,
        ],
      ]) {
        const a = best(m.ours);
        const b = best(m.pipeline);
        const maxRss = Math.max(...m.ours.map((r) => r.maxRss));
        const met = a.seconds <= b.seconds && maxRss < RSS_LIMIT;
        rows.push({
          case: `${name} ${formatMiB(size)} file (file to file)`,
          ours: `${formatSeconds(a.seconds)} (${formatMBps(size / a.seconds)}), peak RSS ${mb(maxRss)}`,
          reference: `pipeline ${formatSeconds(b.seconds)} (${formatMBps(size / b.seconds)})`,
          ratio: formatRatio(b.seconds / a.seconds),
          cpu_ratio: formatRatio(b.cpuSeconds / a.cpuSeconds),
          target: 'no slower than the pipeline; peak RSS < 150 MB',
          met,
          notes: `ratios: ours faster by; CPU ${formatSeconds(a.cpuSeconds)} vs ${formatSeconds(b.cpuSeconds)}; ${check}`,
        });
      }
      for (const path of [file, envelope, back, theirs, theirsBack]) await rm(path, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  report('Streaming file envelopes vs a coreutils + openssl pipeline', rows);
}

if (process.argv[2] === 'child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}
