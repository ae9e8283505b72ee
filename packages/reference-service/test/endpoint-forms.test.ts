// IPv6 forms that carry an IPv4 address (IPv4-compatible, IPv4-mapped, 6to4, NAT64): refused when
// the address inside is loopback or private, at subscription time and again at delivery time,
// for IP literals and for names after DNS.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deliverer, type Resolve } from '../src/workflow/delivery.js';
import { EndpointPolicy, embeddedIPv4, isInternalAddress } from '../src/workflow/endpoint-policy.js';
import { SubscriptionStore } from '../src/workflow/subscriptions.js';
import { bearer, login, startTestService, type TestService, type Tokens } from './support/service.js';
import { completedTransaction } from './support/transaction.js';

// Each names 127.0.0.1, 10.0.0.1 or 192.168.1.1 inside an IPv6 address.
const INTERNAL_FORMS = [
  '::127.0.0.1',
  '::7f00:1',
  '::ffff:127.0.0.1',
  '::ffff:a00:1',
  '2002:7f00:1::1',
  '2002:c0a8:101::1',
  '2002:a00:1:1::5',
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.1',
  '64:ff9b:1::a00:1',
];

describe('isInternalAddress()', () => {
  it.each(INTERNAL_FORMS)('refuses %s', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it('reads the IPv4 address inside each form', () => {
    expect(embeddedIPv4('::127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:a00:1')).toBe('10.0.0.1');
    expect(embeddedIPv4('2002:7f00:1::1')).toBe('127.0.0.1');
    expect(embeddedIPv4('64:ff9b::c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIPv4('2606:4700::1111')).toBeUndefined();
  });

  it('still allows public addresses, including a 6to4 form of a public IPv4 address', () => {
    for (const address of [
      '2606:4700::1111',
      '2002:808:808::1',
      '8.8.8.8',
      '93.184.215.14',
      '2a00:1450:4001:80b::200e',
    ])
      expect(isInternalAddress(address), address).toBe(false);
  });
});

describe('subscriptions naming such an address', () => {
  let t: TestService;
  let tokens: Tokens;
  beforeAll(async () => {
    // No allowed hosts: every endpoint is judged by the policy.
    t = await startTestService({ webhookAllowHosts: [] });
    tokens = await login(t.url, 'alpha');
  });
  afterAll(() => t.close());

  it.each(INTERNAL_FORMS)('are refused for [%s]', async (address) => {
    const response = await fetch(`${t.url}/notification/v1/connect/webhook/subscriptions`, {
      method: 'POST',
      headers: { ...bearer(tokens), 'content-type': 'application/json' },
      body: JSON.stringify({
        event_names: ['v2rx.completed'],
        endpoint: `https://[${address}]/hook`,
        signing_key: 'whsec-forms-0123',
      }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.type).toBe('subscription.invalid');
  });
});

describe('deliveries to such an address', () => {
  const transaction = completedTransaction('txn-forms', 'f');

  /** A subscription stored as it is (as if the policy changed since it was made), delivered once. */
  async function deliverTo(endpoint: string, resolve?: Resolve) {
    const subscriptions = new SubscriptionStore();
    subscriptions.add({
      owner: 'alpha',
      eventNames: ['v2rx.completed'],
      endpoint,
      signingKey: 'whsec-forms-0123',
      protocol: 'https',
    });
    const deliverer = new Deliverer(subscriptions, new EndpointPolicy([]), {
      shape: 'event',
      attempts: 1,
      backoffMs: 1,
      maxRetryAfterMs: 1,
      log: undefined,
      ...(resolve ? { resolve } : {}),
    });
    deliverer.deliver(transaction);
    await deliverer.close();
    return deliverer.records;
  }

  it.each(INTERNAL_FORMS)('are not attempted for the literal [%s]', async (address) => {
    const records = await deliverTo(`https://[${address}]:9/hook`);
    expect(records.map((record) => record.error)).toEqual(['EINTERNAL']);
  });

  it.each(INTERNAL_FORMS)('are not attempted for a name that resolves to %s', async (address) => {
    // The resolver stands in for DNS: no DNS server here answers with these addresses.
    const resolve: Resolve = (_hostname, _options, callback) =>
      callback(null, [
        { address: '2606:4700::1111', family: 6 },
        { address, family: 6 },
      ] satisfies LookupAddress[]);
    const records = await deliverTo('https://hooks.example.test:9/hook', resolve);
    expect(records.map((record) => record.error)).toEqual(['EINTERNAL']);
  });
});
