import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { decryptJson } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/run-cli.js';
import { KEY, KID, referenceService, runTool, startProxyProcess, TOKEN } from '../proxy/support.js';

/*
 * Large suite (`pnpm test:large`). A 1 GiB file uploaded by curl through `jwe-transport proxy` to
 * the reference service, in each mode, with the service's record of what it stored (size and
 * SHA-256) checked against the file, and the proxy's peak resident memory against a bound far
 * below the file size. `pnpm bench proxy` measures the same uploads' memory and throughput.
 */

const FILE_BYTES = 2 ** 30;
const MEMORY_BOUND_MB = 250;
const MEASURE = fileURLToPath(new URL('../helpers/measure-rss.mjs', import.meta.url));
const DOCS = '/mr/api/v2/docs?task=smart';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let service: Awaited<ReturnType<typeof referenceService>>;
let fileSha256: string;

async function writeTestFile(path: string): Promise<string> {
  const block = randomBytes(2 ** 20);
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let index = 0; index < FILE_BYTES / block.length; index++) {
    const chunk = Buffer.from(block);
    chunk.writeUInt32BE(index, 0);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
  return hash.digest('hex');
}

function run(command: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', env: { PATH: process.env.PATH ?? '' } });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

beforeAll(async () => {
  tmp = await tempDir();
  fileSha256 = await writeTestFile(tmp.path('recording.wav'));
  service = await referenceService('2gb');
});

afterAll(async () => {
  await service?.close();
  await tmp?.cleanup();
});

/** Uploads through a proxy run under measure-rss.mjs; resolves with the service's record and the proxy's peak RSS. */
async function uploadThrough(proxyArgs: string[], curlArgs: string[]) {
  const proxy = await startProxyProcess(['--upstream', service.url, '--kid', KID, ...proxyArgs], {}, MEASURE);
  const result = await runTool('curl', [
    '-sS',
    '--fail-with-body',
    '-H',
    `Authorization: Bearer ${TOKEN}`,
    ...curlArgs,
    `${proxy.url}${DOCS}`,
  ]);
  expect(await proxy.stop('SIGINT')).toBe(0);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const maxRssMb = (Number(/MAX_RSS_KB=(\d+)/.exec(proxy.stderr())?.[1]) * 1024) / 1e6;
  return { record: JSON.parse(result.stdout) as Record<string, unknown>, maxRssMb };
}

describe('1 GiB uploads through jwe-transport proxy', () => {
  it('sealing, raw body (curl -T): sealed as it streams; the service stores the exact bytes', async () => {
    const { record, maxRssMb } = await uploadThrough(
      [],
      ['-X', 'POST', '-T', tmp.path('recording.wav'), '-H', 'Content-Type: application/octet-stream'],
    );
    expect(record).toMatchObject({ encrypted: true, size: FILE_BYTES, sha256: fileSha256 });
    expect(maxRssMb).toBeLessThan(MEMORY_BOUND_MB);
  });

  it('sealing, multipart (curl -F): kept in a temporary file, then sealed; the service stores the exact bytes', async () => {
    const { record, maxRssMb } = await uploadThrough(
      [],
      ['-F', `file=@${tmp.path('recording.wav')};type=audio/wav`],
    );
    expect(record).toMatchObject({ encrypted: true, size: FILE_BYTES, sha256: fileSha256 });
    expect(maxRssMb).toBeLessThan(MEMORY_BOUND_MB);
  });

  it('watching: an envelope made beforehand passes untouched both ways; the service opens it', async () => {
    const envelope = tmp.path('recording.json');
    expect(
      await run(process.execPath, [
        BIN,
        'encrypt',
        '--file',
        tmp.path('recording.wav'),
        '--kid',
        KID,
        '--key',
        KEY,
        '--out',
        envelope,
      ]),
    ).toBe(0);
    expect((await stat(envelope)).size).toBeGreaterThan(FILE_BYTES);
    const { record: sealed, maxRssMb } = await uploadThrough(
      ['--watch'],
      ['-X', 'POST', '-T', envelope, '-H', 'Content-Type: application/json', '-H', 'X-Encryption: JWE'],
    );
    // The service's sealed answer reaches curl untouched, as it left the service.
    expect(sealed).toHaveProperty('ciphertext');
    const record = await decryptJson(JSON.stringify(sealed), KEY);
    expect(record).toMatchObject({ encrypted: true, size: FILE_BYTES, sha256: fileSha256 });
    expect(maxRssMb).toBeLessThan(MEMORY_BOUND_MB);
  });
});
