import type { KeyInput } from '../key.js';
import { active } from '../one-shot/active.js';
import { sealFileUtf8 } from '../one-shot/seal.js';
import type { EncryptOptions } from '../options.js';

/**
 * `encryptFile` that resolves with the envelope's JSON text as UTF-8 bytes, the bytes
 * `new TextEncoder().encode(JSON.stringify(await encryptFile(bytes, key, options)))` gives, for a
 * request body that an HTTP client sends as it is. The text never exists as a string: on Node
 * it is built in the returned buffer with the ciphertext inside it, so besides the file that
 * buffer is the only large thing the call leaves or holds (a string body would be encoded to
 * bytes again by the client that sends it). The bytes are the caller's, and can be sent again on
 * a retry. For files too large to hold as one string, use `encryptFileStream` (Node).
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { encryptFileToBytes } from '@jwe-transport/codec';
 *
 * const body = await encryptFileToBytes(await readFile('scan.pdf'), 'k3y-f0r-t3st1ng!', { kid: 'k1' });
 * await fetch('https://api.example.com/upload', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
 *   body,
 * });
 * ```
 */
export function encryptFileToBytes(
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  return sealFileUtf8(active, bytes, key, options);
}
