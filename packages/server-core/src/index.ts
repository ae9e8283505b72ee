/**
 * `@jwe-transport/server-core`: JWE (dir + A128CBC-HS256) for servers, on Web `Request` and
 * `Response` with no framework. The Fastify and Hono adapters are built on it.
 * @packageDocumentation
 */

export { carriesBody, isEncryptedHeader, isJsonType } from './encryption-header.js';
export { envelopeJson } from './envelope-json.js';
export { type ErrorBody, errorBody, statusOf } from './error-body.js';
export {
  encodingUnsupported,
  encryptionRequired,
  headerInvalid,
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
  noResponseKey,
  parseFailed,
  plaintextInvalid,
  requestAborted,
  toHttpError,
  tooLarge,
  uploadInvalid,
} from './errors.js';
export { fileFromPayload, isStrictBase64 } from './file-payload.js';
export { JweServer, type Opened, type OpenedEnvelope } from './jwe-server.js';
export {
  type KeysOption,
  keyForKid,
  type RecordingResolver,
  type ResponseKey,
  recordingResolver,
} from './keys.js';
export { parseLimit, type SizeLimit } from './limit.js';
export {
  type JweServerOptions,
  type ResolvedOptions,
  type ResponseEncryption,
  resolveOptions,
} from './options.js';
export { type HeaderValue, readAll, readRequestBody, refuseEarly } from './read-body.js';
export type { JweRequestInfo } from './request-info.js';
export { checkMembers, type ParsedPlaintext, parsePlaintext, parsePlaintextJson } from './strict-json.js';
export {
  errorResponse,
  jweInfo,
  type OpenedBody,
  openRequest,
  openRequestBody,
  parseOpenedJson,
  parseOpenedPlaintext,
  readFilePayload,
  sealResponse,
  type WebExchange,
} from './web.js';
export { type WithJweOptions, withJwe } from './with-jwe.js';
