import type { CryptoBackend } from '../../src/backend/types.js';
import type { EnvelopeInput } from '../../src/envelope.js';
import type { KeyInput, KeyResolver } from '../../src/key.js';
import { contextFor } from '../../src/one-shot/context.js';
import { openBytes, openDetailed, openFile, openJson } from '../../src/one-shot/open.js';
import {
  sealBytes,
  sealFile,
  sealFileText,
  sealFileUtf8,
  sealJson,
  sealNow,
} from '../../src/one-shot/seal.js';
import type { DecryptOptions, EncryptOptions } from '../../src/options.js';

/**
 * The codec's one-shot functions on any back end, as the package's public ones are on the back
 * end `#backend` picks: so one process can test both back ends, and spied or limited copies of them.
 */
export function codecOn(backend: CryptoBackend) {
  const context = contextFor(backend);
  type Key = KeyInput | KeyResolver;
  return {
    backendName: backend.name,
    encrypt: (plaintext: Uint8Array | string, key: KeyInput, options: EncryptOptions = {}) =>
      sealBytes(context, plaintext, key, options),
    encryptSync: (plaintext: Uint8Array | string, key: KeyInput, options: EncryptOptions = {}) =>
      sealNow(context, plaintext, key, options, 'encryptSync'),
    encryptJson: (value: unknown, key: KeyInput, options?: EncryptOptions) =>
      sealJson(context, value, key, options ?? {}),
    encryptFile: (bytes: Uint8Array, key: KeyInput, options: EncryptOptions = {}) =>
      sealFile(context, bytes, key, options),
    encryptFileToString: (bytes: Uint8Array, key: KeyInput, options: EncryptOptions = {}) =>
      sealFileText(context, bytes, key, options),
    encryptFileToBytes: (bytes: Uint8Array, key: KeyInput, options: EncryptOptions = {}) =>
      sealFileUtf8(context, bytes, key, options),
    decrypt: (input: EnvelopeInput, key: Key, options: DecryptOptions = {}) =>
      openBytes(context, input, key, options),
    decryptJson: <T = unknown>(input: EnvelopeInput, key: Key, options?: DecryptOptions) =>
      openJson<T>(context, input, key, options ?? {}),
    decryptFile: (input: EnvelopeInput, key: Key, options?: DecryptOptions) =>
      openFile(context, input, key, options ?? {}),
    decryptDetailed: (input: EnvelopeInput, key: Key, options: DecryptOptions = {}) =>
      openDetailed(context, input, key, options),
  };
}
