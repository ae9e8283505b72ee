import type { EnvelopeInput } from '../envelope.js';
import type { KeyInput, KeyResolver } from '../key.js';
import { active } from '../one-shot/active.js';
import { openFile } from '../one-shot/open.js';
import type { DecryptOptions } from '../options.js';

/**
 * Opens a file-upload envelope and resolves with the file's bytes. Any JSON spelling of
 * `{"file": "…"}` is read; the base64 must be standard and padded, else `ERR_JWE_INVALID`.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { decryptFile } from '@jwe-transport/codec';
 *
 * await writeFile('scan.pdf', await decryptFile(body, 'k3y-f0r-t3st1ng!'));
 * ```
 */
export function decryptFile(
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options?: DecryptOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  return openFile(active, input, key, options ?? {});
}
