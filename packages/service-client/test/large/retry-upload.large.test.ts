// A retried upload at scale: a 512 MiB file from disk whose first upload is cut by a connection
// reset half way goes again, read anew from disk, in a child process whose memory stays bounded,
// and arrives byte for byte.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '@jwe-transport/reference-service';
import { expect, it } from 'vitest';
import { startChild } from '../support/child.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { writeMarkedFile } from '../support/marked-file.js';

const CLIENT_ID = 'large-retry-client';
const CLIENT_SECRET = 'large-retry-secret-01';

const MiB = 1024 ** 2;
const SIZE = 512 * MiB;

it('sends a 512 MiB file again after a reset half way, from disk, in bounded memory', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'service-client-retry-large-'));
  // The reference service builds the storage URL on the address it was reached at, so the
  // storage POSTs come through the proxy too.
  const service = await startService({
    keys: { k1: 'large-shared-k01' },
    tokens: [],
    port: 0,
    docsDir: join(dir, 'docs'),
    uploadLimit: '1mb',
    generated: {},
    workflow: { clients: { [CLIENT_ID]: CLIENT_SECRET } },
  });
  const storage = '/storage/ekascribe-audio/';
  const proxy = await startFaultProxy(service.url, (request) =>
    request.method === 'POST' && request.path === storage && request.index === 0
      ? { kind: 'reset-after-bytes', bytes: SIZE / 2 }
      : undefined,
  );
  try {
    const path = join(dir, 'long-consultation.wav');
    const expected = await writeMarkedFile(path, SIZE, [0, SIZE - MiB]);
    const child = startChild(fileURLToPath(new URL('../fixtures/upload-process.mjs', import.meta.url)), {
      BASE_URL: proxy.url,
      CLIENT_ID,
      CLIENT_SECRET,
      FILE: path,
    });
    const report = JSON.parse(await child.next()) as { baseline: number; peak: number; folder: string };
    await child.stop();
    expect(proxy.log.filter((entry) => entry.path === storage).map((entry) => entry.outcome)).toEqual([
      'reset',
      204,
    ]);
    expect(report.folder).toBe('large-file/');
    const stored = service.workflow.transactions.get('large-file')?.files.get('long-consultation.wav');
    expect(stored).toMatchObject({ size: SIZE, sha256: expected });
    expect(report.peak - report.baseline).toBeLessThan(96 * MiB);
    process.stdout.write(
      `retried 512 MiB upload: peak RSS ${Math.round((report.peak - report.baseline) / MiB)} MiB over baseline\n`,
    );
  } finally {
    await proxy.close();
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
});
