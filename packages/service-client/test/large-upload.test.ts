// The storage leg at scale: a 1 GiB file from disk is streamed to the presigned-POST endpoint by
// a child process whose memory stays bounded, and arrives byte for byte.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startChild } from './support/child.js';
import { CLIENT_ID, CLIENT_SECRET, startTestService } from './support/service-server.js';

const SIZE = 1024 ** 3;
const MiB = 1024 ** 2;

/** A sparse file of `SIZE` bytes with random marks at the start, the middle and the end. */
async function markedFile(path: string): Promise<string> {
  const handle = await open(path, 'w');
  const marks = [0, SIZE / 2 - 123, SIZE - MiB].map((offset) => ({ offset, bytes: randomBytes(MiB) }));
  for (const mark of marks) await handle.write(mark.bytes, 0, MiB, mark.offset);
  await handle.truncate(SIZE);
  await handle.close();
  const hash = createHash('sha256');
  const zeros = Buffer.alloc(4 * MiB);
  let position = 0;
  for (const mark of marks) {
    for (; position + zeros.length <= mark.offset; position += zeros.length) hash.update(zeros);
    hash.update(zeros.subarray(0, mark.offset - position));
    hash.update(mark.bytes);
    position = mark.offset + MiB;
  }
  return hash.digest('hex');
}

it('streams a 1 GiB file from disk in bounded memory, every byte arriving in order', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'service-client-large-'));
  const service = await startTestService();
  try {
    const path = join(dir, 'long-consultation.wav');
    const expected = await markedFile(path);
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
