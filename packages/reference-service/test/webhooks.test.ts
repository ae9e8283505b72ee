import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  grant,
  login,
  presignedPost,
  startBody,
  startTestService,
  startTransaction,
  type TestService,
  type Tokens,
} from './support/service.js';

const SUBSCRIPTIONS = '/notification/v1/connect/webhook/subscriptions';
const KEY = 'whsec-test-0123456789';

interface Delivery {
  body: string;
  signature: string | undefined;
}

/** A receiver on 127.0.0.1 that records deliveries and answers the statuses it is given, then 200. */
async function receiver(statuses: number[] = []) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['eka-webhook-signature'] as string | undefined,
      });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The field notes' check, written here independently of the service: HMAC-SHA256 over "<t>.<body>". */
function verify(delivery: Delivery, key: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(delivery.signature ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', key).update(`${match[1]}.${delivery.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

let t: TestService;
let alpha: Tokens;
let beta: Tokens;

beforeAll(async () => {
  t = await startTestService({ maxSubscriptionsPerClient: 3, deliveryAttempts: 2, deliveryBackoffMs: 20 });
  alpha = await login(t.url, 'alpha');
  beta = await login(t.url, 'beta');
});
afterAll(() => t.close());

const subscribe = (tokens: Tokens, body: Record<string, unknown>) =>
  fetch(`${t.url}${SUBSCRIPTIONS}`, {
    method: 'POST',
    headers: { ...bearer(tokens), 'content-type': 'application/json' },
    body: JSON.stringify({ event_names: ['v2rx.completed'], signing_key: KEY, ...body }),
  });

const deleteAll = async (tokens: Tokens) => {
  const list = await (await fetch(`${t.url}${SUBSCRIPTIONS}`, { headers: bearer(tokens) })).json();
  for (const item of list.data)
    await fetch(`${t.url}${SUBSCRIPTIONS}/${item.id}`, { method: 'DELETE', headers: bearer(tokens) });
};

async function completeTransaction(tokens: Tokens, txnId: string): Promise<void> {
  const data = await grant(t.url, tokens, txnId);
  expect((await presignedPost(data, 'a.wav', randomBytes(100))).status).toBe(204);
  expect((await startTransaction(t.url, tokens, txnId, startBody(data, ['a.wav']))).status).toBe(201);
}

describe('webhook subscriptions', () => {
  it('answers 201 {id, status: "success"}; the owner reads and deletes it, another client gets 404', async () => {
    const response = await subscribe(alpha, { endpoint: 'https://hooks.example.org/eka', protocol: 'https' });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toEqual({ id: expect.any(String), status: 'success' });
    const own = await fetch(`${t.url}${SUBSCRIPTIONS}/${created.id}`, { headers: bearer(alpha) });
    expect(await own.json()).toMatchObject({
      id: created.id,
      endpoint: 'https://hooks.example.org/eka',
      signed: true,
    });
    expect(
      JSON.stringify(await (await fetch(`${t.url}${SUBSCRIPTIONS}`, { headers: bearer(beta) })).json()),
    ).not.toContain(created.id);
    expect((await fetch(`${t.url}${SUBSCRIPTIONS}/${created.id}`, { headers: bearer(beta) })).status).toBe(
      404,
    );
    const foreignDelete = await fetch(`${t.url}${SUBSCRIPTIONS}/${created.id}`, {
      method: 'DELETE',
      headers: bearer(beta),
    });
    expect(foreignDelete.status).toBe(404);
    const ownDelete = await fetch(`${t.url}${SUBSCRIPTIONS}/${created.id}`, {
      method: 'DELETE',
      headers: bearer(alpha),
    });
    expect(ownDelete.status).toBe(200);
    expect(await ownDelete.json()).toEqual({ status: 'success', msg: expect.any(String) });
    expect((await fetch(`${t.url}${SUBSCRIPTIONS}/${created.id}`, { headers: bearer(alpha) })).status).toBe(
      404,
    );
  });

  it('subscribes to every event the service sends when event_names is left out', async () => {
    const response = await fetch(`${t.url}${SUBSCRIPTIONS}`, {
      method: 'POST',
      headers: { ...bearer(alpha), 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'https://hooks.example.org/all', protocol: 'https' }),
    });
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const stored = await (await fetch(`${t.url}${SUBSCRIPTIONS}/${id}`, { headers: bearer(alpha) })).json();
    expect(stored.event_names).toEqual(['v2rx.completed']);
    await fetch(`${t.url}${SUBSCRIPTIONS}/${id}`, { method: 'DELETE', headers: bearer(alpha) });
  });

  it('accepts only https to public hosts, or hosts the operator allows', async () => {
    const refused = [
      'http://hooks.example.org/eka',
      'https://10.0.0.8/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://localhost/hook',
      'https://0x7f000002/hook',
      'http://127.0.0.2/hook',
      'https://user:pass@hooks.example.org/hook',
      'file:///etc/passwd',
    ];
    for (const endpoint of refused) {
      const response = await subscribe(alpha, { endpoint });
      expect(response.status, endpoint).toBe(400);
      expect((await response.json()).error.type).toBe('subscription.invalid');
    }
    const allowed = await subscribe(alpha, { endpoint: 'http://127.0.0.1:9/hook', protocol: 'http' });
    expect(allowed.status).toBe(201);
    await deleteAll(alpha);
  });

  it('caps the subscriptions one client holds', async () => {
    for (let index = 0; index < 3; index++)
      expect((await subscribe(beta, { endpoint: `https://hooks.example.org/${index}` })).status).toBe(201);
    const over = await subscribe(beta, { endpoint: 'https://hooks.example.org/3' });
    expect(over.status).toBe(403);
    expect((await over.json()).error.code).toBe('ERR_SUBSCRIPTION_LIMIT');
    // Another client has its own allowance.
    expect((await subscribe(alpha, { endpoint: 'https://hooks.example.org/a' })).status).toBe(201);
    await deleteAll(beta);
    await deleteAll(alpha);
  });
});

describe('v2rx.completed delivery', () => {
  it("signs the notification for the owner's subscriptions only", async () => {
    const mine = await receiver();
    const theirs = await receiver();
    try {
      expect((await subscribe(alpha, { endpoint: mine.url, protocol: 'http' })).status).toBe(201);
      expect((await subscribe(beta, { endpoint: theirs.url, protocol: 'http' })).status).toBe(201);
      await completeTransaction(alpha, 'hook-owner');
      await expect.poll(() => mine.deliveries.length).toBe(1);
      await t.service.workflow.deliveries.settled();
      expect(theirs.deliveries).toEqual([]);
      const [delivery] = mine.deliveries;
      expect(verify(delivery!, KEY)).toBe(true);
      expect(verify(delivery!, 'another-signing-key')).toBe(false);
      expect(JSON.parse(delivery!.body)).toEqual({
        event: 'v2rx.completed',
        data: { transaction_id: 'hook-owner', status: 'completed', session_id: 'hook-owner' },
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      });
    } finally {
      await deleteAll(alpha);
      await deleteAll(beta);
      await mine.close();
      await theirs.close();
    }
  });

  it('retries a failed delivery, signed again, with the same event identity (payload shape)', async () => {
    const other = await startTestService({
      notificationShape: 'payload',
      deliveryAttempts: 2,
      deliveryBackoffMs: 20,
    });
    const hook = await receiver([500]);
    try {
      const tokens = await login(other.url, 'alpha');
      const response = await fetch(`${other.url}${SUBSCRIPTIONS}`, {
        method: 'POST',
        headers: { ...bearer(tokens), 'content-type': 'application/json' },
        body: JSON.stringify({
          event_names: ['v2rx.completed'],
          endpoint: hook.url,
          signing_key: KEY,
          protocol: 'http',
        }),
      });
      expect(response.status).toBe(201);
      const data = await grant(other.url, tokens, 'hook-retry');
      await presignedPost(data, 'a.wav', randomBytes(10));
      await startTransaction(other.url, tokens, 'hook-retry', startBody(data, ['a.wav']));
      await expect.poll(() => hook.deliveries.length).toBe(2);
      const [first, second] = hook.deliveries.map((delivery) => ({
        delivery,
        body: JSON.parse(delivery.body),
      }));
      for (const { delivery } of [first!, second!]) expect(verify(delivery, KEY)).toBe(true);
      expect(first!.body.event_id).toMatch(/^evt_/);
      expect(second!.body.event_id).toBe(first!.body.event_id);
      expect(first!.body).toMatchObject({
        client_id: 'alpha',
        payload: { event: 'v2rx.completed', transaction_id: 'hook-retry' },
      });
      await other.service.workflow.deliveries.settled();
      expect(other.service.workflow.deliveries.records.map((record) => record.status)).toEqual([500, 200]);
    } finally {
      await other.close();
      await hook.close();
    }
  });

  it('refuses to deliver to a public-looking name that resolves to an internal address', async () => {
    const hook = await receiver();
    try {
      const endpoint = `https://${hostname()}:${hook.port}/hook`;
      expect((await subscribe(alpha, { endpoint })).status).toBe(201);
      await completeTransaction(alpha, 'hook-internal');
      await expect
        .poll(
          () =>
            t.service.workflow.deliveries.records.filter((r) => r.transactionId === 'hook-internal').length,
        )
        .toBe(2);
      const records = t.service.workflow.deliveries.records.filter(
        (r) => r.transactionId === 'hook-internal',
      );
      expect(records.map((record) => record.error)).toEqual(['EINTERNAL', 'EINTERNAL']);
      expect(hook.deliveries).toEqual([]);
    } finally {
      await deleteAll(alpha);
      await hook.close();
    }
  });
});
