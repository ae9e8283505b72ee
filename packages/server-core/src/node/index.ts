/**
 * `@jwe-transport/server-core/node`: the Node.js-only parts, for uploads streamed to disk
 * (encrypted ones through the codec's streaming decryptor) and upload-friendly server timeouts.
 * @packageDocumentation
 */
export type { JweFile } from './jwe-file.js';
export {
  DEFAULT_UPLOAD_LIMIT,
  type ReceivedFile,
  type ReceivedUpload,
  type ReceiveFileOptions,
  receiveEncryptedFile,
  type UploadHeaders,
} from './receive-file.js';
export {
  type ReceivedUploadResult,
  receiveUpload,
  type UploadOptions,
} from './receive-upload.js';
export {
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_REQUEST_TIMEOUT,
  setUploadTimeouts,
  type UploadTimeouts,
} from './timeouts.js';
export { type WithJweUploadOptions, withJweUpload } from './with-jwe-upload.js';
