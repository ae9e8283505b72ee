export { isWebhookError, WebhookError, type WebhookErrorCode, type WebhookErrorType } from './errors.js';
export {
  parseWebhookBody,
  parseWebhookEvent,
  TRANSCRIPTION_COMPLETED,
  type WebhookEvent,
} from './notification.js';
export { type WebhookDelivery, type WebhookReceiverOptions, webhookReceiver } from './receiver.js';
export { ReplayGuard } from './replay.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type ParsedSignature,
  parseSignatureHeader,
  signWebhookPayload,
  type VerifiedSignature,
  type VerifyOptions,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  webhookDigest,
} from './signature.js';
