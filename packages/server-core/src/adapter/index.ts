/**
 * `@jwe-transport/server-core/adapter`: the pieces the framework adapters (Express, Fastify,
 * Hono) are built from: error factories, the body reader, option resolution, the strict JSON
 * parser, refusal reporting. Not for applications: these names may change between minor versions.
 * @packageDocumentation
 */
export { carriesBody, isEncryptedHeader, isJsonType } from '../encryption-header.js';
export { envelopeJson } from '../envelope-json.js';
export { errorBody, statusOf } from '../error-body.js';
export {
  charsetUnsupported,
  encodingUnsupported,
  encryptionRequired,
  headerInvalid,
  isJweHttpError,
  JweHttpError,
  jsonTooDeep,
  mountOrder,
  noResponseKey,
  parseFailed,
  plaintextInvalid,
  requestAborted,
  requestTimeout,
  toHttpError,
  tooLarge,
  unknownKid,
  uploadInvalid,
} from '../errors.js';
export { fileFromPayload, isStrictBase64 } from '../file-payload.js';
export type { Opened, OpenedEnvelope } from '../jwe-server.js';
export { keyForKid, type RecordingResolver, type ResponseKey, recordingResolver } from '../keys.js';
export { parseLimit } from '../limit.js';
export { type ResolvedOptions, resolveOptions } from '../options.js';
export { type HeaderValue, readAll, readRequestBody, refuseEarly, streamChunks } from '../read-body.js';
export {
  describeRefusal,
  loggableKid,
  noteKid,
  openedOfError,
  rememberOpened,
  reportRefusal,
  sealAfterAuthentication,
} from '../refusal.js';
export { PLAIN_INFO } from '../request-info.js';
export { SNIFF_BYTES } from '../sniff.js';
export {
  checkJsonText,
  checkMembers,
  decodeText,
  type JsonRules,
  type ParsedPlaintext,
  parseJsonBody,
  parsePlaintext,
  parsePlaintextJson,
} from '../strict-json.js';
export {
  ENCRYPT_FAILED_BODY,
  isPlainJson,
  type OpenedBody,
  openPlainJson,
  openRequestBody,
  parseOpenedJson,
  parseOpenedPlaintext,
} from '../web.js';
export { type Refuser, refuser } from '../with-jwe.js';
