import { streaming } from '#backend';
import type { KeyInput, KeyResolver } from '../key.js';
import type { ByteSource, DecryptStreamOptions, DecryptStreamResult } from '../stream/types.js';
import { streamingUnsupported } from '../stream/unsupported.js';

/**
 * Decrypts a file-upload envelope read from `source` and writes the file to `options.to` (a
 * path, written atomically, or a `WritableStream`). Resolves only after the tag has verified; on
 * any failure the sink is aborted (a file destination is never created) and the promise rejects.
 * Node.js and Deno builds (see `streamingAvailable`).
 *
 * @example
 * ```ts
 * import { decryptFileStream } from '@jwe-transport/codec';
 *
 * const { bytes, kid } = await decryptFileStream(request, 'k3y-f0r-t3st1ng!', { to: '/srv/uploads/scan.pdf' });
 * ```
 */
export function decryptFileStream(
  source: ByteSource,
  key: KeyInput | KeyResolver,
  options: DecryptStreamOptions,
): Promise<DecryptStreamResult> {
  if (!streaming) return Promise.reject(streamingUnsupported('decryptFileStream'));
  return streaming.decrypt(source, key, options, 'file', 'decryptFileStream');
}
