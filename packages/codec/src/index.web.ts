/**
 * `@jwe-transport/codec` for browsers, Deno, Bun and workers: the WebCrypto back end.
 * @packageDocumentation
 */
import { webBackend } from './backend/web.js';
import { bindCodec } from './codec.js';

export * from './public.js';

/** Which crypto back end this entry point uses: `'webcrypto'` here, `'node'` in the Node build. */
export const backendName = webBackend.name;

export const {
  encrypt,
  encryptSync,
  encryptJson,
  encryptFile,
  decrypt,
  decryptJson,
  decryptFile,
  decryptDetailed,
} = bindCodec(webBackend);

export * from './stream/unsupported.js';
