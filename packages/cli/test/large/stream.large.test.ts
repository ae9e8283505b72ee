import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, tempDir } from '../helpers/run-cli.js';

/*
 * Large suite (`pnpm test:large`). A 500 MiB file through `encrypt --file` and `decrypt --out`, each in its own process, with the
 * peak resident memory of each process checked against a bound far below the file size. The
 * envelope is ~890 MiB, so nothing here can pass by holding the file in memory.
 */

const FILE_BYTES = 500 * 2 ** 20;
const MEMORY_BOUND_MB = 300;
const MEASURE = fileURLToPath(new URL('../helpers/measure-rss.mjs', import.meta.url));

let tmp: Awaited<ReturnType<typeof tempDir>>;
let inputSha256: string;

async function writeTestFile(path: string, size: number): Promise<string> {
  // Random 1 MiB blocks, each stamped with its index, so no two blocks repeat.
  const block = randomBytes(2 ** 20);
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let written = 0, index = 0; written < size; index++) {
    const chunk = Buffer.from(block.subarray(0, Math.min(block.length, size - written)));
    chunk.writeUInt32BE(index, 0);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    written += chunk.length;
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return hash.digest('hex');
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function runMeasured(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; maxRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MEASURE, ...args], {
      env: { PATH: process.env.PATH ?? '', JWE_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const kb = Number(/MAX_RSS_KB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolve({ code, stdout, stderr, maxRssMb: kb / 1024 });
    });
  });
}

beforeAll(async () => {
  tmp = await tempDir();
  inputSha256 = await writeTestFile(tmp.path('recording.wav'), FILE_BYTES);
}, 120_000);
afterAll(async () => {
  await tmp.cleanup();
});

describe('large files stream through the built binary with bounded memory', () => {
  it('encrypts and decrypts a 500 MiB file; the bytes survive and each process stays far below the file size', async () => {
    const envelope = tmp.path('upload.json');
    const encrypted = await runMeasured([
      'encrypt',
      '--file',
      tmp.path('recording.wav'),
      '--kid',
      'k1',
      '--out',
      envelope,
    ]);
    expect(encrypted.code, encrypted.stderr).toBe(0);
    expect((await stat(envelope)).size).toBeGreaterThan((FILE_BYTES * 4) / 3);
    expect(encrypted.maxRssMb).toBeLessThan(MEMORY_BOUND_MB);

    const restored = tmp.path('restored.wav');
    const decrypted = await runMeasured(['decrypt', envelope, '--out', restored, '--json']);
    expect(decrypted.code, decrypted.stderr).toBe(0);
    expect(JSON.parse(decrypted.stdout)).toMatchObject({
      streamed: true,
      kid: 'k1',
      payload: { type: 'file', size: FILE_BYTES },
    });
    expect(decrypted.maxRssMb).toBeLessThan(MEMORY_BOUND_MB);
    expect(await sha256Of(restored)).toBe(inputSha256);
  }, 240_000);
});
