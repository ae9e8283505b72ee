import { createHash, randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';

const MiB = 1024 ** 2;

/**
 * Writes a sparse file of `size` bytes, zeros but for a random MiB at each of `offsets`
 * (ascending, not overlapping), so that a byte out of place anywhere changes its hash.
 * Answers its SHA-256, computed without reading the file back.
 */
export async function writeMarkedFile(
  path: string,
  size: number,
  offsets: readonly number[],
): Promise<string> {
  const marks = offsets.map((offset) => ({ offset, bytes: randomBytes(MiB) }));
  const handle = await open(path, 'w');
  try {
    for (const mark of marks) await handle.write(mark.bytes, 0, MiB, mark.offset);
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
  const hash = createHash('sha256');
  const zeros = Buffer.alloc(4 * MiB);
  let position = 0;
  const zerosUpTo = (end: number) => {
    for (; position + zeros.length <= end; position += zeros.length) hash.update(zeros);
    hash.update(zeros.subarray(0, end - position));
    position = end;
  };
  for (const mark of marks) {
    zerosUpTo(mark.offset);
    hash.update(mark.bytes);
    position = mark.offset + MiB;
  }
  zerosUpTo(size);
  return hash.digest('hex');
}
