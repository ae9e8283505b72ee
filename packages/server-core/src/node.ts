/**
 * `@jwe-transport/server-core/node`: the Node.js-only parts, for large encrypted uploads
 * streamed to disk through the codec's streaming decryptor.
 * @packageDocumentation
 */
export { EnvelopeGuard, type GuardLimits } from './node/envelope-guard.js';
export type { JweFile } from './node/jwe-file.js';
export {
  DEFAULT_UPLOAD_LIMIT,
  type ReceivedFile,
  type ReceivedUpload,
  type ReceiveFileOptions,
  receiveEncryptedFile,
  type UploadHeaders,
} from './node/receive-file.js';
export { receiveUpload, type UploadedFile, type UploadOptions } from './node/receive-upload.js';
export {
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_REQUEST_TIMEOUT,
  setUploadTimeouts,
  type UploadTimeouts,
} from './node/timeouts.js';
export { type WithJweUploadOptions, withJweUpload } from './node/with-jwe-upload.js';
