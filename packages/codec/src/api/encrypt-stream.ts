import { streaming } from '#backend';
import type { KeyInput } from '../key.js';
import type { ByteSource, EncryptStreamOptions } from '../stream/types.js';
import { streamingUnsupported } from '../stream/unsupported.js';

/**
 * Like `encryptFileStream`, with the streamed bytes as the plaintext itself (a large JSON body,
 * anything). Node.js and Deno builds (see `streamingAvailable`).
 *
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * import { encryptStream } from '@jwe-transport/codec';
 *
 * const body = encryptStream(createReadStream('export.json'), 'k3y-f0r-t3st1ng!');
 * ```
 */
export function encryptStream(
  source: ByteSource,
  key: KeyInput,
  options: EncryptStreamOptions = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  if (!streaming) throw streamingUnsupported('encryptStream');
  return streaming.encrypt(source, key, options, 'raw', 'encryptStream');
}
