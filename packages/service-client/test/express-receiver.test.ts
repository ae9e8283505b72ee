import { createHmac } from 'node:crypto';
import { MemoryStore, type WebhookDelivery, type WebhookEvent } from '@jwe-transport/service-client';
import { type WebhookReceiverOptions, webhookReceiver } from '@jwe-transport/service-client/express';
import { signWebhookPayload } from '@jwe-transport/service-client/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, errorAsJson, listen, type Running } from './support/express.js';

const SIGNING_KEY = 'whsec-test-signing-key';
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The field notes' scheme, computed here with node:crypto, independently of the package. */
function referenceSignature(body: string, key: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

// Member order and spacing that JSON.stringify would not reproduce: only the raw bytes verify.
const EVENT_SHAPE =
  '{ "timestamp": "2026-11-22T03:00:00Z",  "event": "v2rx.completed", "data": {"transaction_id": "txn-ünï", "status": "completed", "session_id": "txn-ünï"} }';
const PAYLOAD_SHAPE = JSON.stringify({
  business_id: 'b-1',
  client_id: 'c-1',
  service_id: 's-1',
  event_id: 'e-1',
  payload: {
    service: 'v2rx',
    event: 'v2rx.completed',
    event_time: 1795316400,
    transaction_id: 'txn-2',
    data: { status: 'completed' },
  },
});

interface Received {
  event: WebhookEvent;
  delivery: WebhookDelivery;
}

describe.each(EXPRESS_VERSIONS)('webhookReceiver() on $name', ({ create, json }) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<WebhookReceiverOptions> = {}, mount?: 'after-json' | 'json-verify') {
    const received: Received[] = [];
    let notify: (() => void) | undefined;
    const arrival = () =>
      new Promise<void>((resolve) => {
        notify = resolve;
      });
    const app = create();
    if (mount === 'after-json') app.use(json());
    if (mount === 'json-verify') {
      app.use(
        json({
          verify: (req, _res, buf) => {
            (req as unknown as { rawBody: Buffer }).rawBody = Buffer.from(buf);
          },
        }),
      );
    }
    app.post(
      '/hooks',
      webhookReceiver({
        signingKey: SIGNING_KEY,
        store: new MemoryStore(),
        onEvent: (event, delivery) => {
          received.push({ event, delivery });
          notify?.();
        },
        ...options,
      } as WebhookReceiverOptions),
    );
    app.use(errorAsJson);
    running = await listen(app);
    const url = `${running.url}/hooks`;
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { received, arrival, post };
  }

  it('accepts a delivery signed over its raw bytes and hands one typed event to the application', async () => {
    const { received, arrival, post } = await start();
    const arrived = arrival();
    const t = nowSeconds();
    const response = await post(EVENT_SHAPE, {
      'eka-webhook-signature': referenceSignature(EVENT_SHAPE, SIGNING_KEY, t),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, handled: true, duplicate: false });
    await arrived;
    expect(received).toHaveLength(1);
    expect(received[0]?.event).toEqual({
      event: 'v2rx.completed',
      transactionId: 'txn-ünï',
      sessionId: 'txn-ünï',
      status: 'completed',
      occurredAt: '2026-11-22T03:00:00.000Z',
      eventId: undefined,
      businessId: undefined,
      clientId: undefined,
      serviceId: undefined,
      service: undefined,
      data: { transaction_id: 'txn-ünï', status: 'completed', session_id: 'txn-ünï' },
      shape: 'event',
    });
    expect(received[0]?.delivery.verified).toBe(true);
    expect(received[0]?.delivery.signedAt).toBe(t);
    expect(Buffer.from(received[0]!.delivery.rawBody).toString('utf8')).toBe(EVENT_SHAPE);
  });

  it('normalizes the second documented shape into the same event type', async () => {
    const { received, arrival, post } = await start();
    const arrived = arrival();
    const response = await post(PAYLOAD_SHAPE, {
      'eka-webhook-signature': referenceSignature(PAYLOAD_SHAPE, SIGNING_KEY, nowSeconds()),
    });
    expect(response.status).toBe(200);
    await arrived;
    expect(received[0]?.event).toEqual({
      event: 'v2rx.completed',
      transactionId: 'txn-2',
      sessionId: 'txn-2',
      status: 'completed',
      occurredAt: new Date(1795316400 * 1000).toISOString(),
      eventId: 'e-1',
      businessId: 'b-1',
      clientId: 'c-1',
      serviceId: 's-1',
      service: 'v2rx',
      data: { status: 'completed' },
      shape: 'payload',
    });
  });

  it('refuses a delivery without a signature, with a wrong key, or with a modified body', async () => {
    const { received, post } = await start();
    const t = nowSeconds();
    const missing = await post(EVENT_SHAPE);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      error: { type: 'webhook.signature.missing', code: 'ERR_WEBHOOK_SIGNATURE_MISSING' },
    });
    const cases = [
      referenceSignature(EVENT_SHAPE, 'another-key', t),
      referenceSignature(EVENT_SHAPE.replace('completed', 'completeD'), SIGNING_KEY, t),
      referenceSignature(EVENT_SHAPE, SIGNING_KEY, t).replace(/v1=../, 'v1=zz'),
      `t=${t}`,
      'v1=abc',
      'garbage',
    ];
    for (const header of cases) {
      const response = await post(EVENT_SHAPE, { 'eka-webhook-signature': header });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { type: string; code: string; message: string } };
      expect(body.error.type).toBe('webhook.signature.invalid');
      expect(body.error.code).toBe('ERR_WEBHOOK_SIGNATURE_INVALID');
      expect(body.error.message).toMatch(/signing_key of this subscription/);
      expect(body.error.message).not.toContain(SIGNING_KEY);
    }
    expect(received).toHaveLength(0);
  });

  it('refuses timestamps outside the 180 s window on either side, and accepts one inside it', async () => {
    // The receiver's clock is pinned: otherwise a request that crosses a second boundary sees a
    // timestamp signed 181 s ahead as 180 s ahead, inside the window.
    const now = nowSeconds();
    const { post, arrival } = await start({ nowSeconds: () => now });
    for (const offset of [-181, 181, -3600]) {
      const t = now + offset;
      const response = await post(EVENT_SHAPE, {
        'eka-webhook-signature': referenceSignature(EVENT_SHAPE, SIGNING_KEY, t),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        error: { type: 'webhook.timestamp.stale', code: 'ERR_WEBHOOK_TIMESTAMP_STALE' },
      });
    }
    const arrived = arrival();
    const fresh = now - 150;
    const ok = await post(EVENT_SHAPE, {
      'eka-webhook-signature': referenceSignature(EVENT_SHAPE, SIGNING_KEY, fresh),
    });
    expect(ok.status).toBe(200);
    await arrived;
  });

  it('honours a configured tolerance window', async () => {
    const { post } = await start({ toleranceSeconds: 10 });
    const t = nowSeconds() - 60;
    const response = await post(EVENT_SHAPE, {
      'eka-webhook-signature': referenceSignature(EVENT_SHAPE, SIGNING_KEY, t),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
      'webhook.timestamp.stale',
    );
  });

  it('refuses a replayed delivery', async () => {
    const { received, post, arrival } = await start();
    const header = { 'eka-webhook-signature': referenceSignature(EVENT_SHAPE, SIGNING_KEY, nowSeconds()) };
    const arrived = arrival();
    expect((await post(EVENT_SHAPE, header)).status).toBe(200);
    await arrived;
    const replay = await post(EVENT_SHAPE, header);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({
      error: { type: 'webhook.replayed', code: 'ERR_WEBHOOK_REPLAYED' },
    });
    expect(received).toHaveLength(1);
  });

  it('refuses a correctly signed body that is not a notification', async () => {
    const { post } = await start();
    for (const body of [
      'not json',
      '[]',
      '{"event":"v2rx.completed","data":{}}',
      '{"payload":{"event":"x"}}',
    ]) {
      const response = await post(body, {
        'eka-webhook-signature': await signWebhookPayload(body, SIGNING_KEY),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { type: 'webhook.payload.invalid', code: 'ERR_WEBHOOK_PAYLOAD_INVALID' },
      });
    }
  });

  it("with ack 'before-handler' answers before the application handler finishes, and routes handler errors to onError", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    let reportedError: { error: unknown; sessionId: string } | undefined;
    let errorReported: () => void = () => {};
    const errorSeen = new Promise<void>((resolve) => {
      errorReported = resolve;
    });
    const { post } = await start({
      ack: 'before-handler',
      onEvent: async () => {
        await gate;
        finished = true;
        throw new Error('database down');
      },
      onError: (error, event) => {
        reportedError = { error, sessionId: event.sessionId };
        errorReported();
      },
    });
    const response = await post(EVENT_SHAPE, {
      'eka-webhook-signature': referenceSignature(EVENT_SHAPE, SIGNING_KEY, nowSeconds()),
    });
    expect(response.status).toBe(200);
    expect(finished).toBe(false);
    release();
    await errorSeen;
    expect(finished).toBe(true);
    expect((reportedError?.error as Error | undefined)?.message).toBe('database down');
    expect(reportedError?.sessionId).toBe('txn-ünï');
  });

  it('acknowledges events it was not asked to handle without calling the handler', async () => {
    const { received, post } = await start();
    const other = '{"event":"v2rx.started","data":{"transaction_id":"t"}}';
    const response = await post(other, {
      'eka-webhook-signature': await signWebhookPayload(other, SIGNING_KEY),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, handled: false, duplicate: false });
    expect(received).toHaveLength(0);
  });

  it('says how to mount it when express.json() already consumed the body, and uses req.rawBody when kept', async () => {
    const first = await start({}, 'after-json');
    const response = await first.post(EVENT_SHAPE, {
      'eka-webhook-signature': await signWebhookPayload(EVENT_SHAPE, SIGNING_KEY),
    });
    expect(response.status).toBe(500);
    await running?.close();
    running = undefined;

    const second = await start({}, 'json-verify');
    const arrived = second.arrival();
    const ok = await second.post(EVENT_SHAPE, {
      'eka-webhook-signature': await signWebhookPayload(EVENT_SHAPE, SIGNING_KEY),
    });
    expect(ok.status).toBe(200);
    await arrived;
    expect(second.received[0]?.event.transactionId).toBe('txn-ünï');
  });

  it('accepts unsigned deliveries only when configured without a signing key', async () => {
    expect(() => webhookReceiver({ onEvent: () => {} })).toThrow(/signingKey .*allowUnsigned/);
    expect(() =>
      webhookReceiver({ signingKey: SIGNING_KEY, allowUnsigned: true, onEvent: () => {} }),
    ).toThrow(/allowUnsigned is only for a subscription without a signing key/);
    const { received, post, arrival } = await start({ signingKey: undefined, allowUnsigned: true } as never);
    const arrived = arrival();
    expect((await post(EVENT_SHAPE)).status).toBe(200);
    await arrived;
    expect(received[0]?.delivery.verified).toBe(false);
    expect(received[0]?.delivery.signedAt).toBeUndefined();
  });
});

describe('webhookReceiver(): identities, ack and limits', () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<WebhookReceiverOptions>) {
    const app = EXPRESS_VERSIONS[0].create();
    app.post(
      '/hooks',
      webhookReceiver({ signingKey: SIGNING_KEY, store: new MemoryStore(), onEvent: () => {}, ...options }),
    );
    app.use(errorAsJson);
    running = await listen(app);
    const url = `${running.url}/hooks`;
    return (body: string, t = nowSeconds()) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'eka-webhook-signature': referenceSignature(body, SIGNING_KEY, t),
        },
        body,
      });
  }

  it('hands an event re-signed with a new timestamp to onEvent once, and answers the duplicate 200', async () => {
    const seen: string[] = [];
    const post = await start({ onEvent: (event) => void seen.push(event.transactionId) });
    const t = nowSeconds();
    expect((await post(PAYLOAD_SHAPE, t - 5)).status).toBe(200);
    const again = await post(PAYLOAD_SHAPE, t);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, handled: false, duplicate: true });
    expect(seen).toEqual(['txn-2']);
  });

  it("ack 'after-handler' (the default) answers after onEvent, 500 on failure, and a retry then delivers the event", async () => {
    let attempts = 0;
    const errors: string[] = [];
    const post = await start({
      onEvent: async () => {
        attempts++;
        if (attempts === 1) throw new Error('database down');
      },
      onError: (error) => void errors.push((error as Error).message),
    });
    const t = nowSeconds();
    const failed = await post(PAYLOAD_SHAPE, t - 1);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { code: 'ERR_WEBHOOK_HANDLER_FAILED' } });
    expect(errors).toEqual(['database down']);
    const retried = await post(PAYLOAD_SHAPE, t);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ received: true, handled: true, duplicate: false });
    expect(attempts).toBe(2);
  });

  it('answers a body over the limit with 413 and closes the connection', async () => {
    const seen: string[] = [];
    const post = await start({ limit: 64, onEvent: (event) => void seen.push(event.event) });
    const response = await post(PAYLOAD_SHAPE);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({ error: { code: 'ERR_WEBHOOK_BODY_TOO_LARGE' } });
    expect(seen).toEqual([]);
  });
});

describe('MemoryStore', () => {
  it('claims a key once until it expires, releases only for its owner, and never holds more than maxEntries', async () => {
    const clock = { now: 1_000 };
    const store = new MemoryStore({ maxEntries: 3, now: () => clock.now });
    expect(await store.claim('a', 'owner-1', 100)).toBe(true);
    expect(await store.claim('a', 'owner-2', 100)).toBe(false);
    await store.release('a', 'owner-2');
    expect(await store.get('a')).toBe('owner-1');
    await store.release('a', 'owner-1');
    expect(await store.claim('a', 'owner-2', 100)).toBe(true);
    clock.now += 100;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.claim('a', 'owner-3', 100)).toBe(true);
    for (const key of ['b', 'c', 'd', 'e']) await store.claim(key, key, 1000);
    expect(store.size).toBe(3);
    // The entry closest to expiry made room first.
    expect(await store.get('a')).toBeUndefined();
  });
});
