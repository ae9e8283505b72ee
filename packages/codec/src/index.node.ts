/**
 * `@jwe-transport/codec` on Node.js: the node:crypto back end.
 * @packageDocumentation
 */
import { nodeBackend } from './backend/node.js';
import { bindCodec } from './codec.js';
import { parallelCrypto } from './parallel/node.js';

export * from './public.js';

/** Which crypto back end this entry point uses: `'node'` here, `'webcrypto'` in the web build. */
export const backendName = nodeBackend.name;

export const {
  encrypt,
  encryptSync,
  encryptJson,
  encryptFile,
  decrypt,
  decryptJson,
  decryptFile,
  decryptDetailed,
} = bindCodec(nodeBackend, parallelCrypto);

export * from './stream/node.js';
