// A large file on disk for upload tests, made at run time and never committed. Each MiB block is
// the SHA-256 chain of its index, so a block shuffled, repeated or dropped in transit shows.
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MiB = 2 ** 20;

export interface DiskFile {
  path: string;
  size: number;
  sha256: string;
  remove(): Promise<void>;
}

export async function makeDiskFile(size: number): Promise<DiskFile> {
  const dir = await mkdtemp(join(tmpdir(), 'jwe-adapter-upload-'));
  const path = join(dir, 'scan.bin');
  const whole = createHash('sha256');
  const block = Buffer.alloc(MiB);
  const handle = await open(path, 'w');
  try {
    for (let written = 0, index = 0; written < size; index++) {
      const seed = createHash('sha256').update(String(index)).digest();
      for (let at = 0; at < MiB; at += seed.length) seed.copy(block, at);
      const chunk = block.subarray(0, Math.min(MiB, size - written));
      whole.update(chunk);
      await handle.write(chunk);
      written += chunk.length;
    }
  } finally {
    await handle.close();
  }
  return { path, size, sha256: whole.digest('hex'), remove: () => rm(dir, { recursive: true, force: true }) };
}
