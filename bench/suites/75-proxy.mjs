// `jwe-transport proxy` with a 1 GiB upload sent by curl, in each mode, beside the same upload
// sent by curl straight to the upstream: the proxy's peak resident memory (the figure that
// matters: bodies stream, so it must stay bounded whatever the size) and the throughput.
// - sealing, raw body (curl -T): the plaintext streams in, is sealed as it goes and
//   streams out as a {"file": …} envelope (a third larger on the wire);
// - sealing, multipart (curl -F): the form is kept in a private temporary file, then sealed from it;
// - watching: an envelope made beforehand passes untouched, a copy of its start is kept on the side.
// The upstream is a sink in its own process that reads every byte and answers a sealed JSON, so
// its work is not counted in the proxy's. BENCH_PROXY_MIB sets the size (default 1024).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMBps, formatMiB, formatRatio, formatSeconds, report } from './lib.mjs';

const KEY = 'k3y-0f-16-bytes!';
const KID = 'bench';
const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const MEASURE = fileURLToPath(new URL('../../packages/cli/test/helpers/measure-rss.mjs', import.meta.url));
const MiB = 2 ** 20;
const SIZE = Number(process.env.BENCH_PROXY_MIB ?? 1024) * MiB;
const RSS_TARGET = 200e6;

if (process.argv[2] === '--sink') {
  const codec = await import(new URL('../../packages/codec/dist/index.node.js', import.meta.url).href);
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      const envelope = codec.encryptSync(JSON.stringify({ bytes }), KEY, { kid: KID });
      response
        .writeHead(200, { 'content-type': 'application/json', 'x-encryption': 'JWE' })
        .end(JSON.stringify(envelope));
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
  process.on('disconnect', () => process.exit(0));
} else {
  await main();
}

function firstLine(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const line = /^(.+)\n/m.exec(out);
      if (line) {
        child.stdout.off('data', onData);
        resolve(line[1].trim());
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address`)));
  });
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} exited ${code}: ${stderr} ${stdout.slice(0, 500)}`)),
    );
  });
}

/** CPU seconds (user + system) a live process has used so far, from /proc. */
async function cpuSeconds(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The proxy under measure-rss.mjs: its address, then on stop its CPU time and peak RSS. */
async function startProxy(upstream, extra) {
  const child = spawn(
    process.execPath,
    [MEASURE, 'proxy', '--upstream', upstream, '--kid', KID, '--port', '0', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', JWE_KEY: KEY } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await firstLine(child);
  const lines = [];
  child.stdout.on('data', (chunk) => lines.push(String(chunk)));
  return {
    url: url.replace(/\/$/, ''),
    lines,
    async stop() {
      const cpu = await cpuSeconds(child.pid);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGINT');
      const code = await exited;
      if (code !== 0) throw new Error(`proxy exited ${code}: ${stderr}`);
      return { cpu, rss: Number(/MAX_RSS_KB=(\d+)/.exec(stderr)?.[1]) * 1024 };
    },
  };
}

async function timedCurl(args) {
  const start = performance.now();
  const out = await run('curl', ['-sS', '--fail-with-body', ...args]);
  return { seconds: (performance.now() - start) / 1000, out };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-proxy-'));
  const sink = spawn(process.execPath, [fileURLToPath(import.meta.url), '--sink'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const rows = [];
  try {
    const upstream = `http://127.0.0.1:${await firstLine(sink)}`;
    const file = join(dir, 'recording.bin');
    const block = randomBytes(MiB);
    const out = createWriteStream(file);
    for (let i = 0; i < SIZE / MiB; i++) {
      block.writeUInt32BE(i, 0);
      if (!out.write(Buffer.from(block))) await new Promise((resolve) => out.once('drain', resolve));
    }
    await new Promise((resolve) => out.end(resolve));
    const envelope = join(dir, 'recording.json');
    await run(process.execPath, [
      BIN,
      'encrypt',
      '--file',
      file,
      '--kid',
      KID,
      '--key',
      KEY,
      '--out',
      envelope,
    ]);
    const envelopeSize = (await stat(envelope)).size;

    const cases = [
      {
        name: 'sealing, raw body (curl -T)',
        flags: [],
        body: ['-X', 'POST', '-T', file, '-H', 'content-type: application/octet-stream'],
        direct: ['-X', 'POST', '-T', file, '-H', 'content-type: application/octet-stream'],
        sent: SIZE,
        note: `the proxy sends a ${formatMiB(envelopeSize)} envelope upstream; straight: curl sends the plain file`,
      },
      {
        name: 'sealing, multipart (curl -F)',
        flags: [],
        body: ['-F', `file=@${file};type=audio/wav`],
        direct: ['-F', `file=@${file};type=audio/wav`],
        sent: SIZE,
        note: 'the form is kept in a temporary file, then sealed from it; straight: curl sends the plain form',
      },
      {
        name: 'watching, an envelope (curl -T)',
        flags: ['--watch'],
        body: [
          '-X',
          'POST',
          '-T',
          envelope,
          '-H',
          'content-type: application/json',
          '-H',
          'x-encryption: JWE',
        ],
        direct: [
          '-X',
          'POST',
          '-T',
          envelope,
          '-H',
          'content-type: application/json',
          '-H',
          'x-encryption: JWE',
        ],
        sent: envelopeSize,
        note: 'bytes pass untouched; straight: the same envelope',
      },
    ];
    for (const one of cases) {
      const straight = await timedCurl([...one.direct, `${upstream}/upload`]);
      const proxy = await startProxy(upstream, one.flags);
      const through = await timedCurl([...one.body, `${proxy.url}/upload`]);
      const { cpu, rss } = await proxy.stop();
      const answered = JSON.parse(through.out);
      if (one.flags.includes('--watch')) {
        if (!answered.ciphertext) throw new Error('the watching proxy changed the answer');
      } else if (!(answered.bytes > SIZE)) throw new Error(`the upstream got ${answered.bytes} bytes`);
      rows.push({
        case: `${formatMiB(SIZE)} upload, ${one.name}`,
        ours: `${formatSeconds(through.seconds)} (${formatMBps(one.sent / through.seconds)}), proxy peak RSS ${formatMiB(rss)}`,
        reference: `straight upstream ${formatSeconds(straight.seconds)} (${formatMBps(one.sent / straight.seconds)})`,
        ratio: formatRatio(straight.seconds / through.seconds),
        cpu_ratio: '',
        target: `proxy peak RSS < ${RSS_TARGET / 1e6} MB`,
        met: rss < RSS_TARGET,
        notes: `${one.note}; proxy CPU ${cpu.toFixed(1)} s; wall ratio below 1: the proxy is slower`,
      });
    }
  } finally {
    sink.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
  report('jwe-transport proxy: 1 GiB uploads', rows);
}
