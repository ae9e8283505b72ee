/**
 * `@jwe-transport/service-client`: the common entry points: `createServiceClient()` (the
 * transcription service's documented wire: login and refresh, presigned uploads, start, results),
 * `verifyWebhook()`, the types the webhook receivers share, the stores, and the errors. Each
 * area's full API is its own subpath: `/auth`, `/transcription`, `/webhooks`, and the adapters
 * `/node`, `/redis`, `/express`, `/fastify`, `/hono`, `/ky`.
 * @packageDocumentation
 */

export { AuthError, type AuthErrorCode, type AuthOperation, isAuthError } from './auth/errors.js';
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
export {
  isTranscriptionError,
  TranscriptionError,
  type TranscriptionErrorCode,
  type TranscriptionErrorDetails,
} from './transcription/errors.js';
export type { ProgressListener, TranscribeProgress } from './transcription/progress.js';
export type { RetryOptions } from './transcription/retry.js';
export type { AudioFile } from './transcription/storage-upload.js';
export {
  isWebhookError,
  WebhookError,
  type WebhookErrorCode,
  type WebhookErrorType,
} from './webhooks/errors.js';
export type { HeadersLike } from './webhooks/headers.js';
export type { WebhookEvent } from './webhooks/notification.js';
export type {
  AckMode,
  WebhookDelivery,
  WebhookOutcome,
  WebhookProcessorOptions,
} from './webhooks/processor.js';
export type { RawBody } from './webhooks/signature.js';
export { type VerifiedWebhook, type VerifyWebhookOptions, verifyWebhook } from './webhooks/verify.js';
