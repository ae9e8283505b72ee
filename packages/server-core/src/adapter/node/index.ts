/**
 * `@jwe-transport/server-core/adapter/node`: the Node-only pieces a framework adapter needs: the
 * one upload path (encrypted or multipart, to disk or memory) and its settings. Not for
 * applications: these names may change between minor versions.
 * @packageDocumentation
 */

export {
  type MultipartOptions,
  type MultipartResult,
  receiveMultipart,
} from '../../node/multipart.js';
export {
  notAnUpload,
  openFileEnvelope,
  type ResolvedUpload,
  receiveUploadFrom,
  resolveUpload,
  type UploadInput,
} from '../../node/receive-upload.js';
