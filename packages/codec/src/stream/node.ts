import type { KeyInput, KeyResolver } from '../key.js';
import { decryptEnvelopeStream } from './decrypt-stream.js';
import { encryptEnvelopeStream } from './encrypt-stream.js';
import type { ByteSource, DecryptStreamOptions, DecryptStreamResult, EncryptStreamOptions } from './types.js';

/**
 * Encrypts a file of any size into a file-upload envelope (plaintext `{"file":"<base64>"}`),
 * returned as a stream of the envelope JSON's bytes. Same bytes as JSON.stringify(await
 * encryptFile(...)) for the same IV; memory stays constant.
 */
export function encryptFileStream(
  source: ByteSource,
  key: KeyInput,
  options: EncryptStreamOptions = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return encryptEnvelopeStream(source, key, options, 'file', 'encryptFileStream');
}

/** Like `encryptFileStream`, with the streamed bytes as the plaintext itself (for large JSON bodies). */
export function encryptStream(
  source: ByteSource,
  key: KeyInput,
  options: EncryptStreamOptions = {},
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return encryptEnvelopeStream(source, key, options, 'raw', 'encryptStream');
}

/**
 * Decrypts a file-upload envelope read from `source` and writes the file to `options.to`.
 * Resolves only after the tag has verified; on any failure the sink is aborted (a file
 * destination is never created) and the promise rejects.
 */
export function decryptFileStream(
  source: ByteSource,
  key: KeyInput | KeyResolver,
  options: DecryptStreamOptions,
): Promise<DecryptStreamResult> {
  return decryptEnvelopeStream(source, key, options, 'file', 'decryptFileStream');
}

/** Like `decryptFileStream`, delivering the plaintext itself. */
export function decryptStream(
  source: ByteSource,
  key: KeyInput | KeyResolver,
  options: DecryptStreamOptions,
): Promise<DecryptStreamResult> {
  return decryptEnvelopeStream(source, key, options, 'raw', 'decryptStream');
}

export type * from './types.js';
