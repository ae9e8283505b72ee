import { streaming } from '#backend';
import type { KeyInput, KeyResolver } from '../key.js';
import type { ByteSource, DecryptStreamOptions, DecryptStreamResult } from '../stream/types.js';
import { streamingUnsupported } from '../stream/unsupported.js';

/**
 * Like `decryptFileStream`, delivering the plaintext itself. Node.js and Deno builds
 * (see `streamingAvailable`).
 *
 * @example
 * ```ts
 * import { decryptStream } from '@jwe-transport/codec';
 *
 * const chunks: Uint8Array[] = [];
 * const to = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) });
 * await decryptStream(response.body!, 'k3y-f0r-t3st1ng!', { to, maxSize: 2 ** 20 });
 * ```
 */
export function decryptStream(
  source: ByteSource,
  key: KeyInput | KeyResolver,
  options: DecryptStreamOptions,
): Promise<DecryptStreamResult> {
  if (!streaming) return Promise.reject(streamingUnsupported('decryptStream'));
  return streaming.decrypt(source, key, options, 'raw', 'decryptStream');
}
