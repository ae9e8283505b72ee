import type { KeyInput } from '@jwe-transport/codec';
import * as codec from '@jwe-transport/codec';
import { JweRequestError } from './errors.js';

type EncryptFileStream = (
  source: ReadableStream<Uint8Array>,
  key: KeyInput,
  options: { kid?: string },
) => ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>;

/**
 * The codec's streaming file encoder. Looked up at run time so that this package also works with
 * a codec build that predates streaming (small files still work there; large ones fail clearly).
 */
export async function encryptFileAsStream(
  file: Blob,
  key: KeyInput,
  kid: string | undefined,
): Promise<ReadableStream<Uint8Array>> {
  const encryptFileStream = (codec as unknown as { encryptFileStream?: EncryptFileStream }).encryptFileStream;
  if (typeof encryptFileStream !== 'function') {
    throw new JweRequestError(
      'ERR_JWE_STREAM_UNAVAILABLE',
      'This file is larger than the streaming threshold, but the installed @jwe-transport/codec has no ' +
        'encryptFileStream. Upgrade the codec, or raise "streamThreshold" to encrypt the file in memory.',
    );
  }
  return encryptFileStream(file.stream(), key, kid === undefined ? {} : { kid });
}
