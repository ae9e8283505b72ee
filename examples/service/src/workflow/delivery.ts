import { createHmac, randomUUID } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { COMPLETED_EVENT } from '@jwe-transport/service-client';
import { type EndpointPolicy, isInternalAddress } from './endpoint-policy.js';
import type { Subscription, SubscriptionStore } from './subscriptions.js';
import type { Transaction } from './transactions.js';

export const SIGNATURE_HEADER = 'Eka-Webhook-Signature';

/** One attempt to deliver one notification, as recorded for tests and logs. */
export interface DeliveryRecord {
  subscriptionId: string;
  transactionId: string;
  attempt: number;
  signed: boolean;
  /** The receiver's HTTP status, or undefined when it could not be reached. */
  status: number | undefined;
  error: string | undefined;
}

/** Field notes: `t=<unix seconds>,v1=<hex HMAC-SHA256(key, "<t>.<body>")>`. */
export function signature(body: string, key: string, seconds: number): string {
  return `t=${seconds},v1=${createHmac('sha256', key).update(`${seconds}.${body}`).digest('hex')}`;
}

/** Spec 2.8 and the field notes' two shapes of `v2rx.completed`. */
export function notificationBody(
  transaction: Transaction,
  shape: 'event' | 'payload',
  eventId: string,
): string {
  const timestamp = transaction.completedAt ?? new Date().toISOString();
  const data = { transaction_id: transaction.id, status: 'completed', session_id: transaction.id };
  if (shape === 'payload') {
    return JSON.stringify({
      business_id: `b-${transaction.owner}`,
      client_id: transaction.owner,
      service_id: 'ekascribe',
      event_id: eventId,
      payload: {
        service: 'ekascribe',
        event: COMPLETED_EVENT,
        event_time: timestamp,
        transaction_id: transaction.id,
        data,
      },
    });
  }
  return JSON.stringify({ event: COMPLETED_EVENT, data, timestamp });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs once, without following redirects; for hosts not on the allow list every resolved address must be public. */
function post(url: URL, headers: Record<string, string>, body: string, guard: boolean): Promise<number> {
  const lookup = (
    hostname: string,
    options: object,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => isInternalAddress(entry.address));
      if (refused)
        return callback(
          Object.assign(new Error(`${hostname} resolves to an internal address`), { code: 'EINTERNAL' }),
          [],
        );
      const all = (options as { all?: boolean }).all === true;
      return all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: 10_000,
        ...(guard ? { lookup } : {}),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () =>
      request.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })),
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Sends `v2rx.completed` to every subscription of the transaction's client that lists it, signed
 * with the subscription's key, retrying a failed delivery with a short backoff. Each retry is
 * signed again with a fresh timestamp and keeps its `event_id`, as receivers must expect.
 */
export class Deliverer {
  readonly records: DeliveryRecord[] = [];
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly policy: EndpointPolicy,
    private readonly options: {
      shape: 'event' | 'payload';
      attempts: number;
      log: ((line: string) => void) | undefined;
    },
  ) {}

  deliver(transaction: Transaction): void {
    for (const subscription of this.subscriptions.of(transaction.owner, COMPLETED_EVENT)) {
      const sending = this.#send(subscription, transaction).finally(() => this.#pending.delete(sending));
      this.#pending.add(sending);
    }
  }

  /** Resolves when every delivery started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #send(subscription: Subscription, transaction: Transaction): Promise<void> {
    const body = notificationBody(transaction, this.options.shape, `evt_${randomUUID()}`);
    const url = new URL(subscription.endpoint);
    const guard = !this.policy.isAllowedHost(url.hostname);
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (subscription.signingKey)
        headers[SIGNATURE_HEADER] = signature(body, subscription.signingKey, Math.floor(Date.now() / 1000));
      const record: DeliveryRecord = {
        subscriptionId: subscription.id,
        transactionId: transaction.id,
        attempt,
        signed: subscription.signingKey !== undefined,
        status: undefined,
        error: undefined,
      };
      try {
        record.status = await post(url, headers, body, guard);
      } catch (error) {
        record.error = (error as NodeJS.ErrnoException).code ?? (error as Error).name ?? 'Error';
      }
      this.records.push(record);
      this.options.log?.(
        `webhook ${COMPLETED_EVENT} txn=${transaction.id} subscription=${subscription.id} attempt=${attempt} ${record.status ?? record.error}`,
      );
      if (record.status !== undefined && record.status >= 200 && record.status < 300) return;
      if (attempt < this.options.attempts) await pause(200 * 2 ** (attempt - 1));
    }
  }
}
