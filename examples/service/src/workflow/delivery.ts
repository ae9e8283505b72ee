import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from '@jwe-transport/express-middleware';
import type { Session } from './sessions.js';
import type { Subscription, SubscriptionStore } from './subscriptions.js';

export const COMPLETED_EVENT = 'v2rx.completed';

/** One attempt to deliver one notification, as recorded for tests and logs. */
export interface DeliveryRecord {
  subscriptionId: string;
  sessionId: string;
  attempt: number;
  signed: boolean;
  /** The receiver's HTTP status, or undefined when it could not be reached. */
  status: number | undefined;
  error: string | undefined;
}

/** Spec 2.8 and the field notes' two shapes of `v2rx.completed`. */
export function notificationBody(session: Session, shape: 'event' | 'payload', clientId: string): string {
  const timestamp = session.completedAt ?? new Date().toISOString();
  if (shape === 'payload') {
    return JSON.stringify({
      business_id: 'reference-business',
      client_id: clientId,
      service_id: 'reference-service',
      event_id: `evt-${session.id}`,
      payload: {
        service: 'v2rx',
        event: COMPLETED_EVENT,
        event_time: timestamp,
        transaction_id: session.id,
        data: { status: 'completed', session_id: session.id },
      },
    });
  }
  return JSON.stringify({
    event: COMPLETED_EVENT,
    data: { transaction_id: session.id, status: 'completed', session_id: session.id },
    timestamp,
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `v2rx.completed` to every subscription that lists it, signed with the subscription's key
 * (`Eka-Webhook-Signature: t=...,v1=...`), retrying a failed delivery with a short backoff. Each
 * retry is signed again with a fresh timestamp, so a receiver's replay check does not refuse it.
 */
export class Deliverer {
  readonly records: DeliveryRecord[] = [];
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly options: {
      shape: 'event' | 'payload';
      attempts: number;
      clientId: string;
      log: ((line: string) => void) | undefined;
    },
  ) {}

  deliver(session: Session): void {
    for (const subscription of this.subscriptions.for(COMPLETED_EVENT)) {
      const sending = this.#send(subscription, session).finally(() => this.#pending.delete(sending));
      this.#pending.add(sending);
    }
  }

  /** Resolves when every delivery started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #send(subscription: Subscription, session: Session): Promise<void> {
    const body = notificationBody(session, this.options.shape, this.options.clientId);
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (subscription.signingKey)
        headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookPayload(body, subscription.signingKey);
      const record: DeliveryRecord = {
        subscriptionId: subscription.id,
        sessionId: session.id,
        attempt,
        signed: subscription.signingKey !== undefined,
        status: undefined,
        error: undefined,
      };
      try {
        const response = await fetch(subscription.endpoint, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.body?.cancel();
        record.status = response.status;
      } catch (error) {
        record.error = error instanceof Error ? error.name : 'Error';
      }
      this.records.push(record);
      this.options.log?.(
        `webhook ${COMPLETED_EVENT} session=${session.id} subscription=${subscription.id} attempt=${attempt} ${record.status ?? record.error}`,
      );
      if (record.status !== undefined && record.status >= 200 && record.status < 300) return;
      if (attempt < this.options.attempts) await pause(200 * 2 ** (attempt - 1));
    }
  }
}
