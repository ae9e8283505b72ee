/**
 * `@jwe-transport/client-core`: what every jwe-transport HTTP client needs, with no HTTP library
 * behind it. Adapters (ky, undici, axios, fetch) are thin layers over {@link createJweClient}.
 * @packageDocumentation
 */

export { type CallPlan, createJweClient, type JweClient } from './client.js';
export {
  DECRYPTED_HEADER,
  type DecryptionInfo,
  decryptionInfo,
  type HeaderEditor,
  markDecryptedHeaders,
  wasDecrypted,
} from './decrypted-response.js';
export { describeArrival, describeTarget } from './describe.js';
export { asEnvelope } from './envelope-detect.js';
export {
  isJweRequestError,
  isJweResponseError,
  JweRequestError,
  type JweRequestErrorCode,
  JweResponseError,
  type JweResponseErrorCode,
  JweUploadError,
} from './errors.js';
export {
  createJweFetch,
  type FetchImplementation,
  type JweFetch,
  type JweRequestInit,
  sendSealedStream,
} from './fetch.js';
export { type HeaderView, isJsonMediaType, isMultipartForm, saysJwe } from './media-type.js';
export type { OpenedBody, ResponseContext, ResponseHead } from './open-response.js';
export {
  DEFAULT_FILE_FIELD,
  DEFAULT_STREAM_THRESHOLD,
  type JweCallOptions,
  type JweClientOptions,
  type RequestFilter,
  type RequestHead,
  type ResolvedClientOptions,
  type ResponseMode,
} from './options.js';
export type { UploadProgress, UploadProgressListener } from './progress.js';
export { readBody } from './read-body.js';
export { canStream, type SealableBody, type SealCallOptions, type SealedBody } from './seal-body.js';
