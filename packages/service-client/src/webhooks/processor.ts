import { isWebhookError, WebhookError } from './errors.js';
import type { HeadersLike } from './headers.js';
import type { WebhookEvent } from './notification.js';
import type { RawBody } from './signature.js';
import { signingKeysOf, type VerifyWebhookOptions, verifyWebhook } from './verify.js';

/**
 * When the receiver answers the sender:
 * - `after-handler` (default): after `onEvent` succeeded, with 200; if it throws, the event's
 *   identity is released and the answer is 500, so a retry can deliver it again. Nothing is lost
 *   when the process dies mid-way, but the sender waits for `onEvent`: keep it short (enqueue).
 * - `before-handler`: 200 first, then `onEvent`. The sender never waits, but an event whose
 *   handler fails (or whose process dies) is not delivered again by a retry.
 */
export type AckMode = 'after-handler' | 'before-handler';

/** What the application's handler learns besides the event. */
export interface WebhookDelivery {
  verified: boolean;
  signedAt: number | undefined;
  identity: string;
  rawBody: RawBody;
}

export interface WebhookProcessorOptions extends VerifyWebhookOptions {
  /** The application's handler, called at most once per event identity. */
  onEvent: (event: WebhookEvent, delivery: WebhookDelivery) => void | Promise<void>;
  /** Default `after-handler`. */
  ack?: AckMode;
  /** Gets errors thrown by `onEvent`. Default: logs the error's name and message (never the body). */
  onError?: (error: unknown, event: WebhookEvent) => void;
}

/** The answer to give the sender, and (for `before-handler`) the work to run after it went out. */
export interface WebhookOutcome {
  status: number;
  body: Record<string, unknown>;
  /** The refusal, when the delivery was refused. */
  error?: WebhookError;
  /** Runs `onEvent` after the answer (ack `before-handler`); never rejects. */
  afterAnswer?: () => Promise<void>;
}

function defaultOnError(error: unknown, event: WebhookEvent): void {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  console.error(
    `webhook handler for ${event.event} (transaction ${event.transactionId}) failed: ${name}: ${message}`,
  );
}

export function refusal(error: WebhookError): WebhookOutcome {
  const body = {
    error: { code: error.code, type: error.type, message: error.expose ? error.message : 'Internal error' },
  };
  return { status: error.status, body, error };
}

/**
 * The receiver's logic without a framework: `verifyWebhook()`, then `onEvent` at most once per
 * event identity, answered as `ack` says. Framework receivers are thin adapters over it.
 */
export function createWebhookProcessor(
  options: WebhookProcessorOptions,
): (rawBody: RawBody, headers: HeadersLike) => Promise<WebhookOutcome> {
  if (typeof options?.onEvent !== 'function') {
    throw new TypeError('webhook receiver: pass onEvent, the function that handles each verified event.');
  }
  signingKeysOf(options, 'webhook receiver');
  const ack = options.ack ?? 'after-handler';
  if (ack !== 'after-handler' && ack !== 'before-handler') {
    throw new TypeError(
      `webhook receiver: ack must be 'after-handler' or 'before-handler'; got ${JSON.stringify(ack)}.`,
    );
  }
  const onError = options.onError ?? defaultOnError;

  return async (rawBody, headers) => {
    let verified: Awaited<ReturnType<typeof verifyWebhook>>;
    try {
      verified = await verifyWebhook(rawBody, headers, options);
    } catch (error) {
      if (isWebhookError(error)) return refusal(error);
      throw error;
    }
    const { event, disposition } = verified;
    const answer = {
      status: 200,
      body: { received: true, handled: disposition === 'new', duplicate: disposition === 'duplicate' },
    };
    if (disposition !== 'new') return answer;
    const delivery: WebhookDelivery = {
      verified: verified.verified,
      signedAt: verified.signedAt,
      identity: verified.identity,
      rawBody,
    };
    const run = async () => {
      try {
        await options.onEvent(event, delivery);
        return true;
      } catch (error) {
        await verified.release().catch(() => {});
        onError(error, event);
        return false;
      }
    };
    if (ack === 'before-handler') return { ...answer, afterAnswer: async () => void (await run()) };
    if (await run()) return answer;
    return refusal(
      new WebhookError(
        'webhook.handler.failed',
        'The application could not handle this event; it was released so that a retry can deliver it again.',
      ),
    );
  };
}
