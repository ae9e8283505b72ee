/**
 * `@jwe-transport/service-client/webhooks`: webhook verification in any runtime (WebCrypto), the
 * receiver's logic without a framework, and the Web-standard handler (Deno, Bun, any
 * `Request => Response` server). The framework receivers are `/express`, `/fastify` and `/hono`.
 * @packageDocumentation
 */

export { MemoryStore, type MemoryStoreOptions } from './store/memory.js';
export type { KeyValueStore } from './store/types.js';
export { COMPLETED_EVENT } from './transcription/vocabulary.js';
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
export { DEFAULT_STORE_TIMEOUT_MS } from './webhooks/store-call.js';
export {
  eventIdentity,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
} from './webhooks/verify.js';
export { type WebhookHandlerOptions, webhookHandler } from './webhooks/web-handler.js';
