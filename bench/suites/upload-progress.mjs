// Rows for ky and axios: the client CPU of a sealed 64 MiB upload from disk with upload progress
// on, against the same upload with it off (target: at most 1.05x). The uploads go to a sink in a
// child process (so its CPU is not counted), interleaved on/off, BENCH_PROGRESS_ROUNDS rounds
// (default 9); the row shows the median CPU time of each, and is judged on the median of the
// rounds' own on/off ratios, so that a busy moment of the machine weighs on both sides of a round.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSeconds, median, pairedRatio } from './lib.mjs';

export const PROGRESS_KEY = 'k3y-0f-16-bytes!';
const MiB = 2 ** 20;
const SIZE = 64 * MiB;

if (process.argv[2] === '--sink') {
  // Reads every upload to the end and answers plain JSON (the clients accept plain answers).
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk) => {
      bytes += chunk.length;
    });
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(`{"bytes":${bytes}}`),
    );
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
  process.on('disconnect', () => process.exit(0));
}

async function startSink() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--sink'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`sink exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * `upload(url, file, onProgress | undefined)` sends one sealed upload of `file` (a Blob read from
 * disk); returns the rows of both measurements.
 */
export async function progressRows(label, upload) {
  const rounds = Number(process.env.BENCH_PROGRESS_ROUNDS ?? 9);
  const dir = await mkdtemp(join(tmpdir(), 'jwe-bench-progress-'));
  const path = join(dir, 'upload.bin');
  await writeFile(path, randomBytes(SIZE));
  const sink = await startSink();
  try {
    const cpu = { on: [], off: [] };
    let events = 0;
    const once = async (withProgress) => {
      const file = await openAsBlob(path);
      const start = process.cpuUsage();
      await upload(sink.url, file, withProgress ? () => events++ : undefined);
      const used = process.cpuUsage(start);
      cpu[withProgress ? 'on' : 'off'].push((used.user + used.system) / 1e6);
    };
    await once(false); // warm-up, not counted
    cpu.off.length = 0;
    for (let round = 0; round < rounds; round++) {
      await once(round % 2 === 0);
      await once(round % 2 !== 0);
    }
    const on = median(cpu.on);
    const off = median(cpu.off);
    const ratio = pairedRatio(cpu.on, cpu.off);
    return [
      {
        case: `${label}: sealed 64 MiB upload from disk, progress on vs off (client CPU)`,
        ours: `${formatSeconds(on)} CPU`,
        reference: `${formatSeconds(off)} CPU`,
        ratio: '',
        cpu_ratio: ratio.toFixed(2),
        target: '<= 1.05x CPU',
        met: ratio <= 1.05,
        notes: `cpu_ratio (judged): the median over ${rounds} interleaved rounds of on / off in the same round; CPU columns: medians; ${Math.round(events / rounds)} progress events per upload`,
      },
    ];
  } finally {
    sink.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
