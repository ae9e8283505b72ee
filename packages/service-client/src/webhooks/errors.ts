import { JweTransportError } from '@jwe-transport/codec';

/** The `type` of every error the webhook receiver passes to `next(err)`, in body-parser's style. */
export type WebhookErrorType =
  | 'webhook.signature.missing'
  | 'webhook.signature.invalid'
  | 'webhook.timestamp.stale'
  | 'webhook.replayed'
  | 'webhook.payload.invalid'
  | 'webhook.body.consumed'
  | 'webhook.body.too_large'
  | 'webhook.handler.failed'
  | 'webhook.in_progress'
  | 'webhook.store.unavailable'
  | 'webhook.internal';

export type WebhookErrorCode =
  | 'ERR_WEBHOOK_SIGNATURE_MISSING'
  | 'ERR_WEBHOOK_SIGNATURE_INVALID'
  | 'ERR_WEBHOOK_TIMESTAMP_STALE'
  | 'ERR_WEBHOOK_REPLAYED'
  | 'ERR_WEBHOOK_PAYLOAD_INVALID'
  | 'ERR_WEBHOOK_BODY_CONSUMED'
  | 'ERR_WEBHOOK_BODY_TOO_LARGE'
  | 'ERR_WEBHOOK_HANDLER_FAILED'
  | 'ERR_WEBHOOK_IN_PROGRESS'
  | 'ERR_WEBHOOK_STORE_UNAVAILABLE'
  | 'ERR_WEBHOOK_INTERNAL';

const STATUS: Record<WebhookErrorType, number> = {
  'webhook.signature.missing': 401,
  'webhook.signature.invalid': 401,
  'webhook.timestamp.stale': 401,
  'webhook.replayed': 409,
  'webhook.payload.invalid': 400,
  // The receiver is mounted wrongly: a server bug, not the sender's.
  'webhook.body.consumed': 500,
  'webhook.body.too_large': 413,
  // With ack 'after-handler': the application failed; the sender should deliver again.
  'webhook.handler.failed': 500,
  // Another delivery of the same event is being handled: not this sender's fault; come back later.
  'webhook.in_progress': 503,
  // The store (Redis) did not answer in time: the event cannot be claimed, so it is not handled now.
  'webhook.store.unavailable': 503,
  // A fault in the receiver itself (not the sender's): answered without details.
  'webhook.internal': 500,
};

const CODE: Record<WebhookErrorType, WebhookErrorCode> = {
  'webhook.signature.missing': 'ERR_WEBHOOK_SIGNATURE_MISSING',
  'webhook.signature.invalid': 'ERR_WEBHOOK_SIGNATURE_INVALID',
  'webhook.timestamp.stale': 'ERR_WEBHOOK_TIMESTAMP_STALE',
  'webhook.replayed': 'ERR_WEBHOOK_REPLAYED',
  'webhook.payload.invalid': 'ERR_WEBHOOK_PAYLOAD_INVALID',
  'webhook.body.consumed': 'ERR_WEBHOOK_BODY_CONSUMED',
  'webhook.body.too_large': 'ERR_WEBHOOK_BODY_TOO_LARGE',
  'webhook.handler.failed': 'ERR_WEBHOOK_HANDLER_FAILED',
  'webhook.in_progress': 'ERR_WEBHOOK_IN_PROGRESS',
  'webhook.store.unavailable': 'ERR_WEBHOOK_STORE_UNAVAILABLE',
  'webhook.internal': 'ERR_WEBHOOK_INTERNAL',
};

/** 503s tell the sender to come back: these are worth its retry, and say nothing about the request. */
const EXPOSED_5XX = new Set<WebhookErrorType>(['webhook.in_progress', 'webhook.store.unavailable']);

// The same brand check as the codec's isJweTransportError: a second copy or bundle of this
// package makes a second class, so instanceof alone would miss its errors.
const WEBHOOK_ERROR_BRAND = Symbol.for('@jwe-transport/service-client.WebhookError');

/**
 * A refused webhook delivery: `status`/`statusCode`, `expose`, `type` and `code` as body-parser
 * errors have them; a `JweTransportError` (the codec's base class), so one `catch` covers every
 * package. Messages never contain the signing key, the expected signature or the body.
 */
export class WebhookError extends JweTransportError {
  readonly status: number;
  readonly statusCode: number;
  readonly expose: boolean;
  readonly type: WebhookErrorType;
  declare readonly code: WebhookErrorCode;

  constructor(type: WebhookErrorType, message: string, options?: { cause?: unknown }) {
    super(CODE[type], message, options);
    this.name = 'WebhookError';
    Object.defineProperty(this, WEBHOOK_ERROR_BRAND, { value: true });
    this.type = type;
    this.status = STATUS[type];
    this.statusCode = this.status;
    this.expose = this.status < 500 || EXPOSED_5XX.has(type);
  }
}

export function isWebhookError(value: unknown): value is WebhookError {
  return (
    value instanceof WebhookError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[WEBHOOK_ERROR_BRAND] === true)
  );
}
