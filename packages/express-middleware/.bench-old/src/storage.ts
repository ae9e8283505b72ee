import { randomBytes } from 'node:crypto';
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SNIFF_BYTES, sniffMimeType } from './sniff.js';

/** A fresh, unguessable file name in the upload folder. */
export function newUploadPath(dest: string): { destination: string; filename: string; path: string } {
  const filename = randomBytes(16).toString('hex');
  return { destination: dest, filename, path: join(dest, filename) };
}

export async function writeUpload(dest: string, bytes: Uint8Array) {
  const target = newUploadPath(dest);
  try {
    await writeFile(target.path, bytes, { flag: 'wx' });
  } catch (error) {
    await removeQuietly(target.path);
    throw error;
  }
  return target;
}

export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => {});
}

/** The declared type when there is a real one, else what the file's first bytes say. */
export function chooseMimeType(declared: string | undefined, head: Uint8Array): string {
  const type = declared?.trim().toLowerCase();
  return type && type !== 'application/octet-stream' ? type : sniffMimeType(head);
}

export async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
