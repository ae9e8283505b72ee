/**
 * `@jwe-transport/codec` on Node.js: the node:crypto back end, with streaming.
 * @packageDocumentation
 */
import { nodeBackend } from './backend/node.js';
import { bindCodec } from './codec.js';

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
} = bindCodec(nodeBackend);

export * from './stream/node.js';
