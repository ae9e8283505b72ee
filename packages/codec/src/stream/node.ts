import { decryptEnvelopeStream } from './decrypt-stream.js';
import { encryptEnvelopeStream } from './encrypt-stream.js';
import type { Streaming } from './types.js';

/** Constant-memory streaming on node:crypto: the streaming functions' engine in the Node and Deno builds. */
export const streaming: Streaming = { encrypt: encryptEnvelopeStream, decrypt: decryptEnvelopeStream };
