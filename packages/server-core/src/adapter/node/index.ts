/**
 * `@jwe-transport/server-core/adapter/node`: the Node-only pieces the framework adapters are
 * built from (the one upload path, the envelope scanner, the multipart reader). Not for
 * applications: these names may change between minor versions.
 * @packageDocumentation
 */
export { EnvelopeGuard, type GuardLimits } from '../../node/envelope-guard.js';
export { chooseMimeType, readHead } from '../../node/file-head.js';
export {
  baseName,
  type MultipartOptions,
  type MultipartResult,
  receiveMultipart,
} from '../../node/multipart.js';
export { privateFolder } from '../../node/private-folder.js';
export { filePayloadShape } from '../../node/receive-file.js';
export {
  headersOf,
  notAnUpload,
  openFileEnvelope,
  type ResolvedUpload,
  receiveUploadFrom,
  resolveUpload,
  type UploadInput,
} from '../../node/receive-upload.js';
