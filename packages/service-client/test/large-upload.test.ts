// The storage leg at scale: a 1 GiB file from disk is streamed to the presigned-POST endpoint by
// a child process whose memory stays bounded, and arrives byte for byte.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startChild } from './support/child.js';
import { writeMarkedFile } from './support/marked-file.js';
import { CLIENT_ID, CLIENT_SECRET, startTestService } from './support/service-server.js';

const SIZE = 1024 ** 3;
const MiB = 1024 ** 2;

it('streams a 1 GiB file from disk in bounded memory, every byte arriving in order', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'service-client-large-'));
  const service = await startTestService();
  try {
    const path = join(dir, 'long-consultation.wav');
    const expected = await writeMarkedFile(path, SIZE, [0, SIZE / 2 - 123, SIZE - MiB]);
    const child = startChild(fileURLToPath(new URL('./fixtures/upload-process.mjs', import.meta.url)), {
      BASE_URL: service.url,
      CLIENT_ID,
      CLIENT_SECRET,
      FILE: path,
    });
    const report = JSON.parse(await child.next()) as {
      size: number;
      baseline: number;
      peak: number;
      folder: string;
    };
    await child.stop();
    const stored = service.storage.files.get(`${report.folder}long-consultation.wav`);
    expect(stored).toMatchObject({ size: SIZE, sha256: expected, contentType: 'audio/wav' });
    // Exact Content-Length (storage refuses chunked uploads): the file plus a small multipart frame.
    expect(service.storage.lengths[0]! - SIZE).toBeGreaterThan(0);
    expect(service.storage.lengths[0]! - SIZE).toBeLessThan(4096);
    expect(report.peak - report.baseline).toBeLessThan(96 * MiB);
  } finally {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
});
