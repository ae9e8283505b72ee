/**
 * `@jwe-transport/client-core/adapter`: what an HTTP adapter (ky, undici, axios) is built from:
 * the client core itself, sending a sealed stream, reading and describing bodies and headers. The
 * names users share with adapters (options, errors, `wasDecrypted`) are the root entry's only.
 * Not needed to use an adapter.
 * @packageDocumentation
 */

export { type CallPlan, createJweClient, type JweClient } from '../client.js';
export { ENVELOPE_ONLY_HEADERS, type HeaderEditor, markDecryptedHeaders } from '../decrypted-response.js';
export { describeArrival, describeTarget } from '../describe.js';
export { asEnvelope } from '../envelope-detect.js';
export { sendSealedStream } from '../fetch.js';
export { type HeaderView, isJsonMediaType, isMultipartForm, saysJwe } from '../media-type.js';
export type { OpenedBody, ResponseContext, ResponseHead } from '../open-response.js';
export type { ResolvedClientOptions } from '../options.js';
export { readBody } from '../read-body.js';
export { canStream, type SealableBody, type SealCallOptions, type SealedBody } from '../seal-body.js';
