import type { KeyInput } from '../key.js';
import { active } from '../one-shot/active.js';
import { sealFileText } from '../one-shot/seal.js';
import type { EncryptOptions } from '../options.js';

/**
 * `encryptFile` that resolves with the envelope's JSON text, the bytes
 * `JSON.stringify(await encryptFile(bytes, key, options))` gives, for a request body. On Node it
 * holds less memory on the way: the text is built in one buffer with the ciphertext inside it,
 * so at most the text twice is alive at once (the envelope object's way holds the ciphertext, its
 * base64url string and the serialised text). For files too large to hold as one string, use
 * `encryptFileStream` (Node).
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { encryptFileToString } from '@jwe-transport/codec';
 *
 * const body = await encryptFileToString(await readFile('scan.pdf'), 'k3y-f0r-t3st1ng!', { kid: 'k1' });
 * await fetch('https://api.example.com/upload', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
 *   body,
 * });
 * ```
 */
export function encryptFileToString(
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions = {},
): Promise<string> {
  return sealFileText(active, bytes, key, options);
}
