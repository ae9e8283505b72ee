export {
  DECRYPTED_HEADER,
  isJweRequestError,
  isJweResponseError,
  type JweCallOptions,
  JweRequestError,
  type JweRequestErrorCode,
  JweResponseError,
  type JweResponseErrorCode,
} from '@jwe-transport/client-core/adapter';
export type { JweAxiosOptions } from './use-jwe.js';
