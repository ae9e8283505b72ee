/**
 * `@jwe-transport/server-core`: JWE (dir + A128CBC-HS256) for servers, on Web `Request` and
 * `Response` with no framework. The Express, Fastify and Hono adapters are built on it (from
 * its `/adapter` subpath); Node-only uploads are in `/node`.
 * @packageDocumentation
 */

export type { JweAnswer, JweRefusalAnswer, PlainRefusal, SealFailure } from './decision.js';
export type { ErrorBody } from './error-body.js';
export { isJweHttpError, JweHttpError, type JweHttpErrorCode, type JweHttpErrorType } from './errors.js';
export { JweServer } from './jwe-server.js';
export type { KeysOption, ResponseKey } from './keys.js';
export type { SizeLimit } from './limit.js';
export type { Opened, OpenedEnvelope } from './opened.js';
export { DEFAULT_LIMIT, type JweServerOptions, type ResponseEncryption } from './options.js';
export type { JweLogger, Refusal, RefusalReporting, RejectListener } from './refusal.js';
export type { JweRequestInfo } from './request-info.js';
export { sniffMimeType } from './sniff.js';
export { DEFAULT_MAX_DEPTH } from './strict-json.js';
export {
  errorResponse,
  jweInfo,
  openRequest,
  readFilePayload,
  sealResponse,
  type WebExchange,
  writeAnswer,
} from './web.js';
export { type WithJweOptions, withJwe } from './with-jwe.js';
