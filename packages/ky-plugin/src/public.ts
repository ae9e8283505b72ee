// The plugin's own surface, shared by the Node and browser entry points.
export {
  createJweFetch,
  DECRYPTED_HEADER,
  DEFAULT_FILE_FIELD,
  DEFAULT_STREAM_THRESHOLD,
  type DecryptionInfo,
  decryptionInfo,
  type FetchImplementation,
  isJweRequestError,
  isJweResponseError,
  type JweCallOptions,
  type JweCallOptions as JweRequestContext,
  type JweFetch,
  JweRequestError,
  type JweRequestErrorCode,
  type JweRequestInit,
  JweResponseError,
  type JweResponseErrorCode,
  JweUploadError,
  type RequestFilter,
  type RequestHead,
  type ResponseMode,
  wasDecrypted,
} from '@jwe-transport/client-core/adapter';
export { type JweKyHook, type JweKyOptions, jwe } from './ky-hooks.js';
export type { JweOptions } from './options.js';
