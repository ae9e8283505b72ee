import { createHmac, randomUUID } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { type EndpointPolicy, isInternalAddress } from './endpoint-policy.js';
import type { Subscription, SubscriptionStore } from './subscriptions.js';
import type { Transaction } from './transactions.js';
import { COMPLETED_EVENT } from './vocabulary.js';

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

export interface DeliveryOptions {
  shape: 'event' | 'payload';
  /** Attempts per notification: the first and the retries. */
  attempts: number;
  /** Wait before the first retry, ms; each later one waits twice as long as the one before. */
  backoffMs: number;
  /** Longest wait a receiver's `Retry-After` is honoured with, ms (a longer one is cut to this). */
  maxRetryAfterMs: number;
  log: ((line: string) => void) | undefined;
  /** Default: the system resolver. */
  resolve?: Resolve;
}

/** The resolver of host names (`dns.lookup`'s shape); tests may pass their own. */
export type Resolve = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: Resolve = (hostname, options, callback) => dnsLookup(hostname, options, callback);

const internalError = (host: string, how: string) =>
  Object.assign(new Error(`${host} ${how} an internal address`), { code: 'EINTERNAL' });

/** What a receiver answered: its status, and how long it asked to wait (`Retry-After`), if it did. */
interface Answer {
  status: number;
  retryAfterMs: number | undefined;
}

/** `Retry-After` as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * POSTs once, without following redirects; for hosts not on the allow list the address must be
 * public: an IP literal here (Node does not resolve those), a name after DNS, every address it
 * resolves to.
 */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  guard: boolean,
  resolve: Resolve,
): Promise<Answer> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (guard && isIP(host) !== 0 && isInternalAddress(host)) return Promise.reject(internalError(host, 'is'));
  const lookup = (
    hostname: string,
    options: object,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    resolve(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((entry) => isInternalAddress(entry.address)))
        return callback(internalError(hostname, 'resolves to'), []);
      const all = (options as { all?: boolean }).all === true;
      return all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return new Promise((done, reject) => {
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
        const retryAfter = response.headers['retry-after'];
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, retryAfterMs: retryAfterMs(retryAfter) }),
        );
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
 * with the subscription's key. A delivery that is not answered 2xx is tried again, `attempts` in
 * all (default 5), waiting as the receiver's `Retry-After` says (capped) or else 2, 4, 8, 16 s:
 * about 30 s, enough to outlast a receiver restart or a short outage of its store. Each retry is
 * signed again with a fresh timestamp and keeps its `event_id`, as receivers must expect.
 */
export class Deliverer {
  readonly records: DeliveryRecord[] = [];
  readonly #pending = new Set<Promise<void>>();
  // The waits between attempts, each with the function that ends it early (on close()).
  readonly #waits = new Map<NodeJS.Timeout, () => void>();
  #closed = false;

  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly policy: EndpointPolicy,
    private readonly options: DeliveryOptions,
  ) {}

  /** Gives up the retries still waiting and resolves once attempts in flight have finished. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const [timer, end] of this.#waits) {
      clearTimeout(timer);
      end();
    }
    this.#waits.clear();
    await this.settled();
  }

  /** Waits `ms` unless the deliverer closes first; false then. */
  #pause(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waits.delete(timer);
        resolve(true);
      }, ms);
      this.#waits.set(timer, () => resolve(false));
    });
  }

  /**
   * The wait before attempt `attempt + 1`: what the receiver asked for with `Retry-After`, at most
   * `maxRetryAfterMs`, otherwise exponential backoff.
   */
  #delay(attempt: number, asked: number | undefined): number {
    if (asked !== undefined) return Math.min(asked, this.options.maxRetryAfterMs);
    return this.options.backoffMs * 2 ** (attempt - 1);
  }

  deliver(transaction: Transaction): void {
    if (this.#closed) return;
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
      let asked: number | undefined;
      try {
        const answer = await post(url, headers, body, guard, this.options.resolve ?? systemResolve);
        record.status = answer.status;
        asked = answer.retryAfterMs;
      } catch (error) {
        record.error = (error as NodeJS.ErrnoException).code ?? (error as Error).name ?? 'Error';
      }
      this.records.push(record);
      const delivered = record.status !== undefined && record.status >= 200 && record.status < 300;
      const wait = delivered || attempt === this.options.attempts ? undefined : this.#delay(attempt, asked);
      this.options.log?.(
        `webhook ${COMPLETED_EVENT} txn=${transaction.id} subscription=${subscription.id} attempt=${attempt}/${this.options.attempts} ${record.status ?? record.error}` +
          (wait === undefined ? '' : `, next in ${wait} ms${asked === undefined ? '' : ' (Retry-After)'}`),
      );
      if (wait === undefined || !(await this.#pause(wait))) return;
    }
  }
}
