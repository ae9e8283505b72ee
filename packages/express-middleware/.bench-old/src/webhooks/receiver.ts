import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { readBody } from '../body-stream.js';
import { parseLimit, type SizeLimit } from '../limit.js';
import { WebhookError } from './errors.js';
import { parseWebhookBody, TRANSCRIPTION_COMPLETED, type WebhookEvent } from './notification.js';
import { ReplayGuard } from './replay.js';
import { DEFAULT_TOLERANCE_SECONDS, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './signature.js';

/** What the application's handler learns besides the event. */
export interface WebhookDelivery {
  /** Whether the signature was checked (false only with `allowUnsigned`). */
  verified: boolean;
  /** The signed timestamp, Unix seconds, when signed. */
  signedAt: number | undefined;
  /** The raw body as received. */
  rawBody: Buffer;
  /** The Express request (headers, ip); its response has already been sent. */
  request: Request;
}

export interface WebhookReceiverOptions {
  /**
   * The `signing_key` of the subscription (or several while rotating). Required unless
   * `allowUnsigned` is set: a receiver without a key accepts anything.
   */
  signingKey?: string | readonly string[];
  /**
   * Accept unsigned deliveries: only for a subscription created without a signing key, so it cannot
   * be combined with `signingKey`.
   */
  allowUnsigned?: boolean;
  /** Seconds a signed timestamp may differ from now. Default 180 (field notes). */
  toleranceSeconds?: number;
  /** Events handed to `onEvent`; others are acknowledged and dropped. Default `['v2rx.completed']`. */
  events?: readonly string[];
  /** Body size limit. Default `'256kb'`. */
  limit?: SizeLimit;
  /** Signatures remembered for replay detection. Default 10 000. */
  replayCacheSize?: number;
  /** The application's handler; runs after the answer went out. */
  onEvent: (event: WebhookEvent, delivery: WebhookDelivery) => void | Promise<void>;
  /** Gets errors thrown by `onEvent`. Default: logs the error's name and message. */
  onError?: (error: unknown, event: WebhookEvent) => void;
  /** The clock, Unix seconds. Default: the system clock. */
  nowSeconds?: () => number;
}

interface RequestWithRawBody extends IncomingMessage {
  rawBody?: unknown;
  _body?: unknown;
}

function defaultOnError(error: unknown, event: WebhookEvent): void {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  console.error(
    `webhook handler for ${event.event} (session ${event.sessionId}) failed: ${name}: ${message}`,
  );
}

/** The raw bytes: read here, or kept by another parser in `req.rawBody`; never re-serialized JSON. */
async function rawBodyOf(req: RequestWithRawBody, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (req._body === true || req.readableEnded) {
    throw new WebhookError(
      'webhook.body.consumed',
      'The webhook body was already read by another parser, so its signature cannot be checked: mount webhookReceiver() before express.json(), or keep the raw bytes in req.rawBody.',
    );
  }
  return readBody(req, limit);
}

function checkOptions(options: WebhookReceiverOptions): readonly string[] | undefined {
  if (typeof options?.onEvent !== 'function') {
    throw new TypeError('webhookReceiver(): pass onEvent, the function that handles each verified event.');
  }
  const keys = typeof options.signingKey === 'string' ? [options.signingKey] : options.signingKey;
  if (
    keys !== undefined &&
    (keys.length === 0 || keys.some((key) => typeof key !== 'string' || key === ''))
  ) {
    throw new TypeError('webhookReceiver(): signingKey must be a non-empty string or a list of them.');
  }
  if (keys !== undefined && options.allowUnsigned === true) {
    throw new TypeError(
      'webhookReceiver(): allowUnsigned is only for a subscription without a signing key; with signingKey every delivery must be signed.',
    );
  }
  if (keys === undefined && options.allowUnsigned !== true) {
    throw new TypeError(
      "webhookReceiver(): pass signingKey (the subscription's signing_key), or allowUnsigned: true for a subscription created without one.",
    );
  }
  return keys;
}

/**
 * Express handler for webhook deliveries (spec 6, field notes): reads the raw body, verifies
 * `Eka-Webhook-Signature` (HMAC-SHA256, constant-time, within the tolerance window, each
 * signature once), validates the notification in either documented shape, answers 200 at once and
 * then hands the typed event to `onEvent`. Refusals go to `next(err)` as errors with `status`,
 * `type` and `code` (`webhook.signature.missing`, `webhook.signature.invalid`,
 * `webhook.timestamp.stale`, `webhook.replayed`, `webhook.payload.invalid`).
 */
export function webhookReceiver(options: WebhookReceiverOptions): RequestHandler {
  const keys = checkOptions(options);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const limit = parseLimit(options.limit ?? '256kb', 'webhookReceiver(): limit');
  const events = new Set(options.events ?? [TRANSCRIPTION_COMPLETED]);
  const replays = new ReplayGuard(tolerance, options.replayCacheSize);
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const onError = options.onError ?? defaultOnError;

  const receive = async (req: Request): Promise<{ event: WebhookEvent; delivery: WebhookDelivery }> => {
    const rawBody = await rawBodyOf(req, limit);
    const header = req.get(WEBHOOK_SIGNATURE_HEADER);
    let signedAt: number | undefined;
    if (keys) {
      const nowSeconds = now();
      const signature = verifyWebhookSignature(rawBody, header, {
        signingKey: keys,
        toleranceSeconds: tolerance,
        nowSeconds,
      });
      if (!replays.remember(signature.timestamp, signature.matched, nowSeconds)) {
        throw new WebhookError(
          'webhook.replayed',
          'This signed delivery was already received: a replay, or a retry that reused the signature.',
        );
      }
      signedAt = signature.timestamp;
    }
    const event = parseWebhookBody(rawBody);
    return { event, delivery: { verified: signedAt !== undefined, signedAt, rawBody, request: req } };
  };

  return (req, res, next) => {
    receive(req).then(
      ({ event, delivery }) => {
        const handled = events.has(event.event);
        res.status(200).json({ received: true, handled });
        if (!handled) return;
        // After the answer: the sender must not wait for (or retry because of) the application's work.
        setImmediate(() => {
          Promise.resolve()
            .then(() => options.onEvent(event, delivery))
            .catch((error: unknown) => onError(error, event));
        });
      },
      (error: unknown) => next(error),
    );
  };
}
