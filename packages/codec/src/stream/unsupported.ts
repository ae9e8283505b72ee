import { JweError } from '../errors.js';
import type { KeyInput, KeyResolver } from '../key.js';
import type { ByteSource, DecryptStreamOptions, DecryptStreamResult, EncryptStreamOptions } from './types.js';

/*
 * The WebCrypto build has no incremental AES-CBC or HMAC, so it cannot stream in constant memory
 * yet. These stand-ins keep the API's shape identical in both builds and fail with a clear code.
 */

function unsupported(name: string): JweError {
  return new JweError(
    'ERR_JWE_UNSUPPORTED',
    `${name} needs the Node.js build of @jwe-transport/codec (node:crypto streams); this is the WebCrypto build. ` +
      'Use the one-shot functions here, or run on Node.js.',
  );
}

export function encryptFileStream(
  _source: ByteSource,
  _key: KeyInput,
  _options?: EncryptStreamOptions,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  throw unsupported('encryptFileStream');
}

export function encryptStream(
  _source: ByteSource,
  _key: KeyInput,
  _options?: EncryptStreamOptions,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  throw unsupported('encryptStream');
}

export function decryptFileStream(
  _source: ByteSource,
  _key: KeyInput | KeyResolver,
  _options: DecryptStreamOptions,
): Promise<DecryptStreamResult> {
  return Promise.reject(unsupported('decryptFileStream'));
}

export function decryptStream(
  _source: ByteSource,
  _key: KeyInput | KeyResolver,
  _options: DecryptStreamOptions,
): Promise<DecryptStreamResult> {
  return Promise.reject(unsupported('decryptStream'));
}

export type * from './types.js';
