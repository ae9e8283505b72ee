import { MemoryStore } from '../store/memory.js';
import type { KeyValueStore } from '../store/types.js';
import { COMPLETED_EVENT } from '../transcription/vocabulary.js';
import { WebhookError } from './errors.js';
import { type HeadersLike, headerValue } from './headers.js';
import { parseWebhookBody, type WebhookEvent } from './notification.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  type RawBody,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from './signature.js';
import { boundedStoreCall, DEFAULT_STORE_TIMEOUT_MS } from './store-call.js';

export interface VerifyWebhookOptions {
  /**
   * The `signing_key` of the subscription (or several while rotating). Required unless
   * `allowUnsigned` is set: a receiver without a key accepts anything.
   */
  signingKey?: string | readonly string[];
  /** Accept unsigned deliveries: only for a subscription created without a signing key. */
  allowUnsigned?: boolean;
  /** Seconds a signed timestamp may differ from now. Default 180 (field notes). */
  toleranceSeconds?: number;
  /**
   * Where seen signatures and event identities are kept. Default: an in-memory store (bounded,
   * entries expire) of the receiver that made it; for `verifyWebhook()` called on its own, one
   * for the whole process. Use `redisStore()` when more than one instance receives deliveries.
   */
  store?: KeyValueStore;
  /**
   * How long one store call may take, ms. Past it the delivery is refused with
   * `webhook.store.unavailable` (503): the event is not claimed, so it is not handled now, and the
   * sender's retry can deliver it. Default 3000.
   */
  storeTimeoutMs?: number;
  /** Events to hand over; others are `ignored`. Default `['v2rx.completed']`. */
  events?: readonly string[];
  /** How long an event identity is remembered, in seconds. Default 86 400 (a day). */
  eventTtlSeconds?: number;
  /**
   * Claim a new event's identity only for this many seconds (a lease) until `settle()` keeps it
   * for `eventTtlSeconds`: if the process dies while handling, the event can be delivered again
   * once the lease ends. Without it the identity is kept for `eventTtlSeconds` at once.
   */
  leaseSeconds?: number;
  /** The clock, Unix seconds. Default: the system clock. */
  nowSeconds?: () => number;
}

/** A verified delivery. */
export interface VerifiedWebhook {
  event: WebhookEvent;
  /** Whether the signature was checked (false only with `allowUnsigned`). */
  verified: boolean;
  /** The signed timestamp, Unix seconds, when signed. */
  signedAt: number | undefined;
  /** `event_id`, or the transaction id and event name: what makes two deliveries the same event. */
  identity: string;
  /**
   * `new`: this call claimed the identity; hand the event to the application. `duplicate`: the
   * event was already claimed (here or by another instance). `ignored`: not one of `events`.
   */
  disposition: 'new' | 'duplicate' | 'ignored';
  /** For a `duplicate`: whether its first delivery is still being handled (its lease holds). */
  inProgress: boolean;
  /** Keeps a `new` event's identity for `eventTtlSeconds` once it was handled (ends a lease). */
  settle(): Promise<void>;
  /**
   * Frees the identity and the signature again (after the application failed on a `new` event),
   * so that a retry can deliver it.
   */
  release(): Promise<void>;
}

let processStore: MemoryStore | undefined;

/** The default store: one per process, created on first use. */
function defaultStore(): KeyValueStore {
  processStore ??= new MemoryStore();
  return processStore;
}

export function signingKeysOf(options: VerifyWebhookOptions, what: string): readonly string[] | undefined {
  const keys = typeof options.signingKey === 'string' ? [options.signingKey] : options.signingKey;
  if (
    keys !== undefined &&
    (keys.length === 0 || keys.some((key) => typeof key !== 'string' || key === ''))
  ) {
    throw new TypeError(`${what}: signingKey must be a non-empty string or a list of them.`);
  }
  if (keys !== undefined && options.allowUnsigned === true) {
    throw new TypeError(
      `${what}: allowUnsigned is only for a subscription without a signing key; with signingKey every delivery must be signed.`,
    );
  }
  if (keys === undefined && options.allowUnsigned !== true) {
    throw new TypeError(
      `${what}: pass signingKey (the subscription's signing_key), or allowUnsigned: true for a subscription created without one.`,
    );
  }
  return keys;
}

export function storeTimeoutOf(options: { storeTimeoutMs?: number }): number {
  const timeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(
      `webhook receiver: storeTimeoutMs must be a positive number of ms; got ${timeoutMs}.`,
    );
  }
  return timeoutMs;
}

export function eventIdentity(event: WebhookEvent): string {
  return event.eventId !== undefined ? `id:${event.eventId}` : `txn:${event.transactionId}:${event.event}`;
}

function claimToken(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Verifies one webhook delivery, in any runtime (WebCrypto): the `Eka-Webhook-Signature` over the
 * raw body (constant-time, 180 s window), that the signature was not seen before (else
 * `webhook.replayed`, 409), the notification in either documented shape, and whether its event
 * identity is new (claimed with `SET NX` in the store, so at most one instance hands it on).
 * Throws a {@link WebhookError} for a delivery to refuse.
 */
export async function verifyWebhook(
  rawBody: RawBody,
  headers: HeadersLike,
  options: VerifyWebhookOptions,
): Promise<VerifiedWebhook> {
  const keys = signingKeysOf(options, 'verifyWebhook()');
  const store = options.store ?? defaultStore();
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.nowSeconds ?? (() => Math.floor(Date.now() / 1000)))();
  const timeoutMs = storeTimeoutOf(options);
  const token = claimToken();
  const held: [key: string, value: string][] = [];
  // A claim that times out may still be written later: undo it then (only this call's value).
  const claim = async (key: string, value: string, ttlMs: number) => {
    const undo = () => void store.release(key, value).catch(() => {});
    if (await boundedStoreCall(() => store.claim(key, value, ttlMs), timeoutMs, undo)) return true;
    // Lost answers are resent by Redis clients after a reconnect: our own value counts as ours.
    return (await boundedStoreCall(() => store.get(key), timeoutMs)) === value;
  };
  const release = async () => {
    for (const [key, value] of held.splice(0))
      await boundedStoreCall(() => store.release(key, value), timeoutMs);
  };
  // A refusal after a claim frees what was claimed; if the store is away, the claim expires instead.
  const releaseQuietly = () => void release().catch(() => {});
  let signedAt: number | undefined;
  if (keys) {
    const signature = await verifyWebhookSignature(rawBody, headerValue(headers, WEBHOOK_SIGNATURE_HEADER), {
      signingKey: keys,
      toleranceSeconds: tolerance,
      nowSeconds,
    });
    const signatureKey = `webhook:signature:${signature.timestamp}.${signature.matched}`;
    // Long enough to outlive the window on either side of the signed time.
    if (!(await claim(signatureKey, token, (2 * tolerance + 1) * 1000))) {
      throw new WebhookError(
        'webhook.replayed',
        'This signed delivery was already received: a replay, or a retry that reused the signature.',
      );
    }
    held.push([signatureKey, token]);
    signedAt = signature.timestamp;
  }
  const eventTtlMs = (options.eventTtlSeconds ?? 86_400) * 1000;
  let settle = async () => {};
  let event: WebhookEvent;
  try {
    event = parseWebhookBody(rawBody);
  } catch (error) {
    releaseQuietly();
    throw error;
  }
  const identity = eventIdentity(event);
  const base = {
    event,
    verified: keys !== undefined,
    signedAt,
    identity,
    release,
    inProgress: false,
    settle: () => settle(),
  };
  if (!(options.events ?? [COMPLETED_EVENT]).includes(event.event))
    return { ...base, disposition: 'ignored' };
  const identityKey = `webhook:event:${identity}`;
  const leased = options.leaseSeconds !== undefined;
  const claimed = leased ? `pending:${token}` : `done:${token}`;
  const claimMs = leased ? Math.max(1, options.leaseSeconds ?? 0) * 1000 : eventTtlMs;
  let claimedNow: boolean;
  try {
    claimedNow = await claim(identityKey, claimed, claimMs);
  } catch (error) {
    releaseQuietly();
    throw error;
  }
  if (!claimedNow) {
    let owner: string | undefined;
    try {
      owner = await boundedStoreCall(() => store.get(identityKey), timeoutMs);
    } catch (error) {
      releaseQuietly();
      throw error;
    }
    return { ...base, disposition: 'duplicate', inProgress: owner?.startsWith('pending:') === true };
  }
  const entry: [string, string] = [identityKey, claimed];
  held.push(entry);
  settle = async () => {
    if (!leased || entry[1] !== claimed) return;
    entry[1] = `done:${token}`;
    await boundedStoreCall(() => store.set(identityKey, entry[1], eventTtlMs), timeoutMs);
  };
  return { ...base, disposition: 'new' };
}
