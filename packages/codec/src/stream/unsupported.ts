import { JweError } from '../errors.js';

/** The refusal of a streaming function in a build without streaming (WebCrypto). */
export function streamingUnsupported(name: string): JweError {
  return new JweError(
    'ERR_JWE_UNSUPPORTED',
    `${name} needs node:crypto streams, which the Node.js and Deno builds of @jwe-transport/codec have; ` +
      'this is the WebCrypto build. Use the one-shot functions here, or run on Node.js or Deno.',
  );
}
