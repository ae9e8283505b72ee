import { streaming } from '#backend';
import type { KeyInput } from '../key.js';
import type { ByteSource, EncryptStreamOptions } from '../stream/types.js';
import { streamingUnsupported } from '../stream/unsupported.js';

/**
 * Encrypts a file of any size into a file-upload envelope (plaintext `{"file":"<base64>"}`),
 * returned as a stream of the envelope JSON's bytes: the same bytes as
 * `JSON.stringify(await encryptFile(...))` for the same IV, in constant memory. Node.js and Deno
 * builds; the WebCrypto build throws `JweError` `ERR_JWE_UNSUPPORTED` (see `streamingAvailable`).
 *
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * import { encryptFileStream } from '@jwe-transport/codec';
 *
 * const body = encryptFileStream(createReadStream('scan.pdf'), 'k3y-f0r-t3st1ng!', { maxSize: 50 * 2 ** 20 });
 * await fetch(url, { method: 'POST', headers: { 'X-Encryption': 'jwe' }, body, duplex: 'half' });
 * ```
 */
export function encryptFileStream(
  source: ByteSource,
  key: KeyInput,
  options: EncryptStreamOptions = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  if (!streaming) throw streamingUnsupported('encryptFileStream');
  return streaming.encrypt(source, key, options, 'file', 'encryptFileStream');
}
