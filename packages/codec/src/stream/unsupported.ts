import { JweError } from '../errors.js';

/** The refusal of a streaming function in a build without streaming (WebCrypto). */
export function streamingUnsupported(name: string): JweError {
  return new JweError(
    'ERR_JWE_UNSUPPORTED',
    `${name} needs the Node.js build of @jwe-transport/codec (node:crypto streams); this is the WebCrypto build. ` +
      'Use the one-shot functions here, or run on Node.js.',
  );
}
