import { nodeBackend } from '../../src/backend/node.js';
import type { CryptoBackend } from '../../src/backend/types.js';
import { webBackend } from '../../src/backend/web.js';
import * as nodeCodec from '../../src/index.js';
import { codecOn } from './codec-on.js';

/** The part of an entry point's API these tests exercise; both entry points must provide it. */
export type Codec = Pick<
  typeof nodeCodec,
  | 'encrypt'
  | 'encryptJson'
  | 'encryptFile'
  | 'encryptFileToString'
  | 'encryptFileToBytes'
  | 'decrypt'
  | 'decryptJson'
  | 'decryptFile'
  | 'decryptDetailed'
  | 'toCompact'
  | 'fromCompact'
  | 'parseEnvelope'
  | 'readEnvelope'
  | 'deriveKey'
  | 'keyring'
  | 'backendName'
>;

/** The MAC and decryption primitives as the codec calls them, for spies. */
export interface Primitives {
  hmacSha256(...args: never[]): unknown;
  aesCbcDecrypt(...args: never[]): unknown;
}

export interface BackendCase {
  name: 'node' | 'webcrypto';
  codec: Codec;
  backend: CryptoBackend;
  /** Where the codec reaches HMAC and AES decryption: the synchronous twins where the back end has them. */
  primitives: Primitives;
}

/** One suite runs against both back ends (the entry point's own, node, and WebCrypto): `describe.each(backends)('$name back end', ...)`. */
export const backends: BackendCase[] = [
  { name: 'node', codec: nodeCodec, backend: nodeBackend, primitives: nodeBackend.sync! },
  {
    name: 'webcrypto',
    codec: { ...nodeCodec, ...codecOn(webBackend) },
    backend: webBackend,
    primitives: webBackend,
  },
];
