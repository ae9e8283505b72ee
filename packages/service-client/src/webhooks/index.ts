/**
 * `@jwe-transport/service-client/webhooks`: webhook verification in any runtime (WebCrypto), the
 * receiver's logic without a framework, and the Web-standard handler (Deno, Bun, any
 * `Request => Response` server). The framework receivers are `/express`, `/fastify` and `/hono`.
 * @packageDocumentation
 */

export { MemoryStore, type MemoryStoreOptions } from '../store/memory.js';
export type { KeyValueStore } from '../store/types.js';
export { COMPLETED_EVENT } from '../transcription/vocabulary.js';
export { DEFAULT_WEBHOOK_LIMIT } from './body-limit.js';
export {
  isWebhookError,
  WebhookError,
  type WebhookErrorCode,
  type WebhookErrorType,
} from './errors.js';
export type { HeadersLike } from './headers.js';
export { parseWebhookBody, parseWebhookEvent, type WebhookEvent } from './notification.js';
export {
  type AckMode,
  createWebhookProcessor,
  type WebhookDelivery,
  type WebhookOutcome,
  type WebhookProcessorOptions,
} from './processor.js';
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
} from './signature.js';
export { DEFAULT_STORE_TIMEOUT_MS } from './store-call.js';
export {
  eventIdentity,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
} from './verify.js';
export { type WebhookHandlerOptions, webhookHandler } from './web-handler.js';
