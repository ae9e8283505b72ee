import { WebhookError } from './errors.js';

/**
 * A webhook notification (spec 2.8), the same whichever of the two documented shapes arrived:
 * - `{ event, data: { transaction_id, status, session_id }, timestamp }` (`shape: 'event'`)
 * - `{ business_id, client_id, service_id, event_id, payload: { service, event, event_time, transaction_id, data } }` (`shape: 'payload'`)
 */
export interface WebhookEvent {
  /** The event kind, e.g. `v2rx.completed`. */
  event: string;
  /** The transaction id given at upload. */
  transactionId: string;
  /** The session id to fetch results with; equals the transaction id (spec 2.8). */
  sessionId: string;
  /** `completed` in the documented notification; undefined when the shape does not carry one. */
  status: string | undefined;
  /** When the event happened, as ISO 8601 UTC when the sender's value could be read as a time. */
  occurredAt: string | undefined;
  /** Sender's identifiers of the second shape; undefined in the first. */
  eventId: string | undefined;
  businessId: string | undefined;
  clientId: string | undefined;
  serviceId: string | undefined;
  service: string | undefined;
  /** The notification's `data` member as sent. */
  data: Record<string, unknown>;
  shape: 'event' | 'payload';
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function invalid(detail: string): WebhookError {
  return new WebhookError('webhook.payload.invalid', `The webhook notification is not valid: ${detail}.`);
}

/** ISO 8601 for an ISO string or a Unix time in seconds or milliseconds; undefined otherwise. */
function isoTime(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const ms = value < 1e11 ? value * 1000 : value;
    return new Date(ms).toISOString();
  }
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return isoTime(Number(value));
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function fromEventShape(body: Json): WebhookEvent {
  const event = text(body.event);
  if (!event) throw invalid('"event" must be a non-empty string');
  if (!isRecord(body.data)) throw invalid('"data" must be an object');
  const transactionId = text(body.data.transaction_id) ?? text(body.data.session_id);
  if (!transactionId) throw invalid('"data.transaction_id" or "data.session_id" must be a non-empty string');
  if (body.timestamp !== undefined && isoTime(body.timestamp) === undefined) {
    throw invalid('"timestamp" must be an ISO 8601 date-time');
  }
  return {
    event,
    transactionId,
    sessionId: text(body.data.session_id) ?? transactionId,
    status: text(body.data.status),
    occurredAt: isoTime(body.timestamp),
    eventId: undefined,
    businessId: undefined,
    clientId: undefined,
    serviceId: undefined,
    service: undefined,
    data: body.data,
    shape: 'event',
  };
}

function fromPayloadShape(body: Json, payload: Json): WebhookEvent {
  const event = text(payload.event);
  if (!event) throw invalid('"payload.event" must be a non-empty string');
  const data = payload.data === undefined ? {} : payload.data;
  if (!isRecord(data)) throw invalid('"payload.data" must be an object');
  const transactionId = text(payload.transaction_id) ?? text(data.transaction_id) ?? text(data.session_id);
  if (!transactionId) throw invalid('"payload.transaction_id" must be a non-empty string');
  if (payload.event_time !== undefined && isoTime(payload.event_time) === undefined) {
    throw invalid('"payload.event_time" must be a date-time or a Unix time');
  }
  return {
    event,
    transactionId,
    sessionId: text(data.session_id) ?? transactionId,
    status: text(data.status),
    occurredAt: isoTime(payload.event_time),
    eventId: text(body.event_id),
    businessId: text(body.business_id),
    clientId: text(body.client_id),
    serviceId: text(body.service_id),
    service: text(payload.service),
    data,
    shape: 'payload',
  };
}

/**
 * Validates a parsed notification body in either documented shape and returns one typed event;
 * throws a `WebhookError` (`webhook.payload.invalid`, 400) naming the first bad member.
 */
export function parseWebhookEvent(body: unknown): WebhookEvent {
  if (!isRecord(body)) throw invalid('the body must be a JSON object');
  if (isRecord(body.payload)) return fromPayloadShape(body, body.payload);
  if (body.event !== undefined || body.data !== undefined) return fromEventShape(body);
  throw invalid('expected "event" and "data", or "payload"');
}

/** Parses raw delivery bytes (UTF-8 JSON) into a {@link WebhookEvent}. */
export function parseWebhookBody(raw: Uint8Array | string): WebhookEvent {
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch (error) {
    throw new WebhookError('webhook.payload.invalid', 'The webhook notification is not UTF-8 JSON.', {
      cause: error,
    });
  }
  return parseWebhookEvent(body);
}
