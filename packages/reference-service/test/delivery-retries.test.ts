// The reference service's webhook deliveries: retried until answered 2xx, waiting as the
// receiver's Retry-After says (capped) or with doubling backoff, against a real HTTP receiver.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Deliverer, type DeliveryOptions, retryAfterMs } from '../src/workflow/delivery.js';
import { EndpointPolicy } from '../src/workflow/endpoint-policy.js';
import { SubscriptionStore } from '../src/workflow/subscriptions.js';
import { completedTransaction } from './support/transaction.js';

const transaction = completedTransaction('txn-retries', 'f');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Answers each delivery with the next [status, Retry-After] pair, then 200. */
async function receiver(answers: [number, string | undefined][]) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [status, retryAfter] = answers.shift() ?? [200, undefined];
      if (retryAfter !== undefined) res.setHeader('retry-after', retryAfter);
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function deliver(endpoint: string, options: Partial<DeliveryOptions>) {
  const subscriptions = new SubscriptionStore();
  subscriptions.add({
    owner: 'alpha',
    eventNames: ['v2rx.completed'],
    endpoint,
    signingKey: 'whsec-retries-0123',
    protocol: 'http',
  });
  const log: string[] = [];
  const deliverer = new Deliverer(subscriptions, new EndpointPolicy(['127.0.0.1']), {
    shape: 'event',
    attempts: 5,
    backoffMs: 10,
    maxRetryAfterMs: 30_000,
    log: (line) => log.push(line),
    ...options,
  });
  deliverer.deliver(transaction);
  await deliverer.settled();
  return { records: deliverer.records, log };
}

describe('delivery retries', () => {
  it('retries 503s and connection failures with doubling backoff until a 2xx', async () => {
    const url = await receiver([
      [503, undefined],
      [500, undefined],
      [429, undefined],
    ]);
    const { records, log } = await deliver(url, {});
    expect(records.map((record) => record.status)).toEqual([503, 500, 429, 200]);
    expect(log.map((line) => /next in (\d+) ms/.exec(line)?.[1])).toEqual(['10', '20', '40', undefined]);
  });

  it('waits as Retry-After says, cut to maxRetryAfterMs, instead of its own backoff', async () => {
    const url = await receiver([
      [503, '0'],
      [503, '3600'],
      [503, new Date(Date.now() + 3_600_000).toUTCString()],
    ]);
    const { records, log } = await deliver(url, { backoffMs: 60_000, maxRetryAfterMs: 25 });
    expect(records.map((record) => record.status)).toEqual([503, 503, 503, 200]);
    expect(log.slice(0, 3).map((line) => /next in (\d+) ms \(Retry-After\)/.exec(line)?.[1])).toEqual([
      '0',
      '25',
      '25',
    ]);
  });

  it('gives up after `attempts`, recording each', async () => {
    const url = await receiver(Array.from({ length: 5 }, () => [503, '0'] as [number, string]));
    const { records } = await deliver(url, {});
    expect(records.map((record) => `${record.attempt}:${record.status}`)).toEqual([
      '1:503',
      '2:503',
      '3:503',
      '4:503',
      '5:503',
    ]);
  });

  it('close() ends the waits between attempts at once', async () => {
    const url = await receiver([[503, undefined]]);
    const subscriptions = new SubscriptionStore();
    subscriptions.add({
      owner: 'alpha',
      eventNames: ['v2rx.completed'],
      endpoint: url,
      signingKey: undefined,
      protocol: 'http',
    });
    let attempted: (() => void) | undefined;
    const first = new Promise<void>((resolve) => {
      attempted = resolve;
    });
    const deliverer = new Deliverer(subscriptions, new EndpointPolicy(['127.0.0.1']), {
      shape: 'event',
      attempts: 5,
      // An hour: the test would time out if close() waited for it.
      backoffMs: 3_600_000,
      maxRetryAfterMs: 30_000,
      log: () => attempted?.(),
    });
    deliverer.deliver(transaction);
    await first;
    await deliverer.close();
    expect(deliverer.records.map((record) => record.status)).toEqual([503]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
