import { open } from 'node:fs/promises';
import { SNIFF_BYTES, sniffMimeType } from '../sniff.js';

/** The declared type when there is a real one, else what the file's first bytes say. */
export function chooseMimeType(declared: string | undefined, head: Uint8Array): string {
  const type = declared?.trim().toLowerCase();
  return type && type !== 'application/octet-stream' ? type : sniffMimeType(head);
}

/** The first bytes of a stored file, for `sniffMimeType`. */
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
