/**
 * `@jwe-transport/service-client`: the transcription service's documented wire (login and
 * refresh, presigned uploads, start, results) and webhook verification that holds across
 * instances, over any fetch, in Node, browsers, Deno and Bun.
 * @packageDocumentation
 */

export { withBearer } from './auth/bearer-fetch.js';
export {
  type AuthEndpointOptions,
  type ClientCredentials,
  clientCredentialsLogin,
  LOGIN_PATH,
  REFRESH_PATH,
  refreshTokenExchange,
} from './auth/endpoints.js';
export { AuthError, type AuthErrorCode, type AuthOperation, isAuthError } from './auth/errors.js';
export {
  createTokenSession,
  TokenSession,
  type TokenSessionOptions,
  type TokenSessionStats,
} from './auth/session.js';
export { parseTokenAnswer, type TokenPair } from './auth/tokens.js';
export {
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
  type TranscribeOptions,
  type TranscriptionStarted,
} from './client.js';
export type { FetchLike } from './http/fetch-like.js';
export { MemoryStore, type MemoryStoreOptions } from './store/memory.js';
export type { KeyValueStore } from './store/types.js';
export { AUDIO_CONTENT_TYPES, audioContentType } from './transcription/content-type.js';
export {
  type DecodedDocument,
  type DecodedResult,
  type DecodeOptions,
  type DocumentFormat,
  decodeSessionResult,
  documentFormat,
  type ResultStatus,
} from './transcription/decode.js';
export {
  isTranscriptionError,
  TranscriptionError,
  type TranscriptionErrorCode,
  type TranscriptionErrorDetails,
} from './transcription/errors.js';
export { parseUploadGrant, UPLOAD_GRANT_PATH, type UploadGrant } from './transcription/grant.js';
export {
  type ExtraData,
  type OutputFormat,
  type OutputTemplate,
  parseTranscriptionParams,
  type TranscriptionParams,
  transcriptionParamsIssues,
} from './transcription/params.js';
export type { FhirOutput, ResultItem, SessionResult } from './transcription/result.js';
export {
  START_PATH,
  type StartedTranscription,
  type StartOptions,
  startBody,
} from './transcription/start.js';
export { type ResultState, STATUS_PATH } from './transcription/status.js';
export {
  type AudioFile,
  MAX_UPLOAD_BYTES,
  type StorageUploadOptions,
  uploadToStorage,
} from './transcription/storage-upload.js';
export {
  SUBSCRIPTION_PATH,
  type WebhookSubscription,
  type WebhookSubscriptionRequest,
} from './transcription/subscription.js';
export {
  COMPLETED_EVENT,
  INPUT_LANGUAGES,
  type InputLanguage,
  ITEM_STATUSES,
  type ItemStatus,
  MODEL_TYPES,
  MODES,
  type Mode,
  type ModelType,
  SCRIBE_ACTION,
  TEMPLATE_IDS,
  type TemplateId,
  TRANSFERS,
  type Transfer,
  UPLOAD_GRANT_ACTION,
} from './transcription/vocabulary.js';
export type { FinishedResult, WaitOptions } from './transcription/wait.js';
export { DEFAULT_WEBHOOK_LIMIT } from './webhooks/body-limit.js';
export {
  isWebhookError,
  WebhookError,
  type WebhookErrorCode,
  type WebhookErrorType,
} from './webhooks/errors.js';
export type { HeadersLike } from './webhooks/headers.js';
export { parseWebhookBody, parseWebhookEvent, type WebhookEvent } from './webhooks/notification.js';
export {
  type AckMode,
  createWebhookProcessor,
  type WebhookDelivery,
  type WebhookOutcome,
  type WebhookProcessorOptions,
} from './webhooks/processor.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  MAX_SIGNATURE_ENTRIES,
  type ParsedSignature,
  parseSignatureHeader,
  type RawBody,
  type SignatureOptions,
  signWebhookPayload,
  type VerifiedSignature,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from './webhooks/signature.js';
export {
  eventIdentity,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
} from './webhooks/verify.js';
export { type WebhookHandlerOptions, webhookHandler } from './webhooks/web-handler.js';
