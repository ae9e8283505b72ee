import type { Envelope } from '../envelope.js';
import type { KeyInput } from '../key.js';
import { active } from '../one-shot/active.js';
import { sealFile } from '../one-shot/seal.js';
import type { EncryptOptions } from '../options.js';

/**
 * Encrypts a file as the file-upload payload `{"file":"<standard base64>"}`. For files too large
 * to hold as one string, use `encryptFileStream` (Node).
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { encryptFile } from '@jwe-transport/codec';
 *
 * const envelope = await encryptFile(await readFile('scan.pdf'), 'k3y-f0r-t3st1ng!');
 * ```
 */
export function encryptFile(
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions = {},
): Promise<Envelope> {
  return sealFile(active, bytes, key, options);
}
