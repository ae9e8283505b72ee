// dist/main.js as a process: the umask it sets keeps document uploads private while they arrive.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServiceProcess, startServiceProcess } from './support/built-service.js';

let docsDir: string;
let service: ServiceProcess;

beforeAll(async () => {
  docsDir = await mkdtemp(join(tmpdir(), 'service-process-'));
  service = await startServiceProcess({
    DOCS_DIR: docsDir,
    ACCESS_TOKENS: 'process-token-1',
    JWE_KEYS: 'k1:proc-shared-key1',
    CLIENTS: JSON.stringify({ one: 'one-secret-123' }),
  });
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await rm(docsDir, { recursive: true, force: true });
});

it('keeps a document upload 0600 while it arrives, and leaves nothing when the client goes away', async () => {
  const incoming = join(docsDir, 'incoming');
  const boundary = 'processboundary';
  const req = request(`${service.url}/mr/api/v2/docs`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer process-token-1',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
  req.on('error', () => {});
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\n\r\n`);
  req.write(randomBytes(512 * 1024));
  // The upload handler keeps files in a private 0700 folder of its own inside incoming/.
  const files = async () =>
    (await readdir(incoming, { recursive: true })).filter((name) => name.includes('/'));
  await expect.poll(files).toHaveLength(1);
  const [partial] = await files();
  expect((await stat(join(incoming, partial!))).mode & 0o777).toBe(0o600);
  expect((await stat(join(incoming, partial!.split('/')[0]!))).mode & 0o777).toBe(0o700);
  expect((await stat(docsDir)).mode & 0o777).toBe(0o700);
  req.destroy();
  await expect.poll(files).toEqual([]);
  expect((await readdir(docsDir)).sort()).toEqual(['audio', 'incoming']);
});
