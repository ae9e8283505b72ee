import { MemoryStore } from '../store/memory.js';
import { isWebhookError, WebhookError } from './errors.js';
import type { HeadersLike } from './headers.js';
import type { WebhookEvent } from './notification.js';
import type { RawBody } from './signature.js';
import { isStoreUnavailable } from './store-call.js';
import { signingKeysOf, storeTimeoutOf, type VerifyWebhookOptions, verifyWebhook } from './verify.js';

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
  /**
   * With ack `after-handler`: how long one instance may take to handle an event before another
   * may deliver it again (if the first died). Keep it above `onEvent`'s longest run. Default 120.
   */
  leaseSeconds?: number;
  /** Gets errors thrown by `onEvent`. Default: logs the error's name and message (never the body). */
  onError?: (error: unknown, event: WebhookEvent) => void;
  /**
   * Seconds the sender is asked to wait (`Retry-After`) when a delivery is answered 503: the
   * store did not answer, or another delivery of the event is in hand. Default 5.
   */
  retryAfterSeconds?: number;
  /**
   * Where the receiver says that its store stopped answering (once per outage) and that it
   * answers again (once). Default `console.error`. Lines name no key, body or signature.
   */
  log?: (line: string) => void;
}

/** The answer to give the sender, and (for `before-handler`) the work to run after it went out. */
export interface WebhookOutcome {
  status: number;
  body: Record<string, unknown>;
  /** The refusal, when the delivery was refused. */
  error?: WebhookError;
  /** Headers to answer with besides `Content-Type` (`Retry-After` on a 503). */
  headers: Record<string, string>;
  /** Runs `onEvent` after the answer (ack `before-handler`); never rejects. */
  afterAnswer?: () => Promise<void>;
}

function defaultOnError(error: unknown, event: WebhookEvent): void {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  console.error(
    `webhook handler for ${event.event} (transaction ${event.transactionId}) failed: ${name}: ${message}`,
  );
}

export function refusal(error: WebhookError, retryAfterSeconds = 5): WebhookOutcome {
  const body = {
    error: { code: error.code, type: error.type, message: error.expose ? error.message : 'Internal error' },
  };
  const headers: Record<string, string> =
    error.status === 503 ? { 'retry-after': String(retryAfterSeconds) } : {};
  if (error.type === 'webhook.body.too_large') headers.connection = 'close';
  return { status: error.status, body, error, headers };
}

/** A fault of the receiver itself (not a refusal of the delivery), answered as JSON without details. */
export function internalFailure(error: unknown, log: (line: string) => void = console.error): WebhookOutcome {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  log(`webhook receiver failed on a delivery: ${name}: ${message}`);
  return refusal(new WebhookError('webhook.internal', 'The webhook receiver failed.', { cause: error }));
}

/**
 * Tracks whether the store answers: one line when it stops (naming the setting that bounds the
 * wait), one when it is back. No timer: the next delivery is what notices the recovery.
 */
function storeHealth(log: (line: string) => void, timeoutMs: number) {
  let down = false;
  return {
    failed(error: WebhookError) {
      if (down) return;
      down = true;
      const reason = /^The receiver's store (.*?), so this delivery/.exec(error.message)?.[1] ?? 'failed';
      log(
        `webhook receiver: the store ${reason}; deliveries are answered 503 with Retry-After, and onEvent does not run, until it answers again. ` +
          `Each store call waits at most storeTimeoutMs (${timeoutMs} ms); the Redis client reconnects by itself.`,
      );
    },
    answered() {
      if (!down) return;
      down = false;
      log('webhook receiver: the store answers again; deliveries are handled.');
    },
  };
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
  const log = options.log ?? ((line: string) => console.error(line));
  const retryAfter = options.retryAfterSeconds ?? 5;
  if (!Number.isInteger(retryAfter) || retryAfter < 0) {
    throw new TypeError(
      `webhook receiver: retryAfterSeconds must be a whole number of seconds; got ${retryAfter}.`,
    );
  }
  const health = storeHealth(log, storeTimeoutOf(options));
  // The receiver's own store: two receivers in one process do not see each other's events.
  const verifyOptions: VerifyWebhookOptions = {
    ...options,
    store: options.store ?? new MemoryStore(),
    ...(ack === 'after-handler' ? { leaseSeconds: options.leaseSeconds ?? 120 } : {}),
  };
  const refuse = (error: WebhookError) => {
    if (isStoreUnavailable(error)) health.failed(error);
    return refusal(error, retryAfter);
  };
  /** A store call after the claim: its failure is logged, not answered (the event was handled or released). */
  const quietly = async (step: () => Promise<void>, event: WebhookEvent) => {
    try {
      await step();
      health.answered();
    } catch (error) {
      if (isStoreUnavailable(error)) health.failed(error);
      else onError(error, event);
    }
  };

  return async (rawBody, headers) => {
    let verified: Awaited<ReturnType<typeof verifyWebhook>>;
    try {
      verified = await verifyWebhook(rawBody, headers, verifyOptions);
    } catch (error) {
      if (isWebhookError(error)) {
        if (error.type === 'webhook.replayed') health.answered();
        return refuse(error);
      }
      return internalFailure(error, log);
    }
    health.answered();
    const { event, disposition } = verified;
    if (disposition === 'duplicate' && verified.inProgress && ack === 'after-handler') {
      return refuse(
        new WebhookError(
          'webhook.in_progress',
          'This event is being handled by another delivery right now: deliver it again later.',
        ),
      );
    }
    const answer: WebhookOutcome = {
      status: 200,
      body: { received: true, handled: disposition === 'new', duplicate: disposition === 'duplicate' },
      headers: {},
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
      } catch (error) {
        onError(error, event);
        await quietly(() => verified.release(), event);
        return false;
      }
      // Handled: a store that fails now must not make the sender deliver it again.
      await quietly(() => verified.settle(), event);
      return true;
    };
    if (ack === 'before-handler') return { ...answer, afterAnswer: async () => void (await run()) };
    if (await run()) return answer;
    return refuse(
      new WebhookError(
        'webhook.handler.failed',
        'The application could not handle this event; it was released so that a retry can deliver it again.',
      ),
    );
  };
}
