/**
 * `@jwe-transport/client-core`: the fetch wrapper that seals requests and opens responses, and
 * what every jwe-transport client shares with its users: options, errors, `wasDecrypted`. The
 * pieces an HTTP adapter is built from are in `@jwe-transport/client-core/adapter`.
 * @packageDocumentation
 */

export { DECRYPTED_HEADER, type DecryptionInfo, decryptionInfo, wasDecrypted } from './decrypted-response.js';
export {
  isJweRequestError,
  isJweResponseError,
  JweRequestError,
  type JweRequestErrorCode,
  JweResponseError,
  type JweResponseErrorCode,
  JweUploadError,
} from './errors.js';
export { createJweFetch, type FetchImplementation, type JweFetch, type JweRequestInit } from './fetch.js';
export {
  DEFAULT_FILE_FIELD,
  DEFAULT_STREAM_THRESHOLD,
  type JweCallOptions,
  type JweClientOptions,
  type RequestFilter,
  type RequestHead,
  type ResponseMode,
} from './options.js';
export type { UploadProgress, UploadProgressListener } from './progress.js';
