// A 200 MiB file made at run time, and a check that uploading it keeps memory bounded.
import { createHash, randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MiB = 2 ** 20;
export const LARGE_FILE_SIZE = 200 * MiB + 123;

export interface LargeFile {
  /** Where it is on disk. */
  path: string;
  blob: Blob;
  sha256: string;
  size: number;
  remove(): Promise<void>;
}

/** Writes pseudo-random bytes to a temp file and returns it as a disk-backed Blob with its SHA-256. */
export async function makeLargeFile(size = LARGE_FILE_SIZE): Promise<LargeFile> {
  const dir = await mkdtemp(join(tmpdir(), 'jwe-ky-large-'));
  const path = join(dir, 'scan.bin');
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  const block = randomBytes(MiB);
  try {
    for (let written = 0, round = 0; written < size; round++) {
      // Vary each block so that a chunk shuffled or repeated in transit changes the hash.
      block.writeUInt32BE(round, 0);
      const chunk = block.subarray(0, Math.min(MiB, size - written));
      hash.update(chunk);
      await handle.write(chunk);
      written += chunk.length;
    }
  } finally {
    await handle.close();
  }
  return {
    path,
    blob: await openAsBlob(path),
    sha256: hash.digest('hex'),
    size,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs `work` and returns its result with the largest growth of `arrayBuffers` (where file
 * bytes, base64 and ciphertext chunks live) seen meanwhile. Client and server share this
 * process, so either side buffering the file would show here.
 */
export async function withMemoryWatch<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const baseline = process.memoryUsage().arrayBuffers;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }, 5);
  try {
    const result = await work();
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}
