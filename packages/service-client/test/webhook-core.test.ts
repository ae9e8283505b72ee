// verifyWebhook() and the Web-standard handler, runtime-neutral (WebCrypto), checked against an
// HMAC computed independently with node:crypto.
import { createHmac } from 'node:crypto';
import { isJweTransportError, JweTransportError } from '@jwe-transport/codec';
import { MemoryStore, verifyWebhook, WebhookError } from '@jwe-transport/service-client';
import {
  MAX_SIGNATURE_ENTRIES,
  parseSignatureHeader,
  signWebhookPayload,
  verifyWebhookSignature,
  webhookHandler,
} from '@jwe-transport/service-client/webhooks';
import { describe, expect, it } from 'vitest';

const KEY = 'whsec-core-0123456789';
const now = () => Math.floor(Date.now() / 1000);
const reference = (body: string, t: number, key = KEY) =>
  `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
const BODY = JSON.stringify({
  business_id: 'b',
  client_id: 'c',
  service_id: 's',
  event_id: 'evt-1',
  payload: {
    service: 'v2rx',
    event: 'v2rx.completed',
    event_time: 1795316400,
    transaction_id: 'txn-9',
    data: {},
  },
});

async function refusal(promise: Promise<unknown>): Promise<WebhookError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookError);
  return error as WebhookError;
}

describe('signatures (WebCrypto)', () => {
  it('signs exactly as the field notes say, and verifies a reference signature over raw bytes or text', async () => {
    const t = now();
    expect(await signWebhookPayload(BODY, KEY, t)).toBe(reference(BODY, t));
    const bytes = new TextEncoder().encode(BODY);
    expect((await verifyWebhookSignature(bytes, reference(BODY, t), { signingKey: KEY })).timestamp).toBe(t);
    // A second key while rotating; an unrelated extra member is ignored.
    const header = `${reference(BODY, t, 'old-key')},v1=${reference(BODY, t).split('v1=')[1]},v0=zz`;
    expect((await verifyWebhookSignature(BODY, header, { signingKey: ['other', KEY] })).matched).toBe(
      reference(BODY, t).split('v1=')[1],
    );
  });

  it('refuses a forged signature before judging the timestamp, and a stale one with its own code', async () => {
    const stale = now() - 181;
    const forged = await refusal(
      verifyWebhookSignature(BODY, reference(BODY, stale, 'wrong'), { signingKey: KEY }),
    );
    expect(forged.code).toBe('ERR_WEBHOOK_SIGNATURE_INVALID');
    const old = await refusal(verifyWebhookSignature(BODY, reference(BODY, stale), { signingKey: KEY }));
    expect(old).toMatchObject({ code: 'ERR_WEBHOOK_TIMESTAMP_STALE', status: 401, expose: true });
    expect(old.message).not.toContain(KEY);
  });
});

describe('the number of v1 entries', () => {
  const t = now();
  const valid = reference(BODY, t).split('v1=')[1]!;
  const forged = (index: number) => createHmac('sha256', `forged-${index}`).update('x').digest('hex');
  const header = (count: number) =>
    `t=${t},${Array.from({ length: count - 1 }, (_, index) => `v1=${forged(index)}`).join(',')},v1=${valid}`;

  it('accepts up to MAX_SIGNATURE_ENTRIES (8), the matching one last', async () => {
    expect(MAX_SIGNATURE_ENTRIES).toBe(8);
    expect((await verifyWebhookSignature(BODY, header(8), { signingKey: KEY })).matched).toBe(valid);
  });

  it('refuses more as malformed before computing any HMAC, even when one of them matches', async () => {
    for (const count of [9, 230, 2000]) {
      const refused = await refusal(verifyWebhookSignature(BODY, header(count), { signingKey: KEY }));
      expect(refused).toMatchObject({ code: 'ERR_WEBHOOK_SIGNATURE_INVALID', status: 401 });
      expect(refused.message).toContain('more than 8 v1 entries');
    }
    expect(() => parseSignatureHeader(header(9))).toThrow(/more than 8 v1 entries/);
  });
});

describe('verifyWebhook()', () => {
  it('reads the header from Web Headers or a Node header object, refuses a replay and reports a re-signed duplicate', async () => {
    const store = new MemoryStore();
    const t = now();
    const first = await verifyWebhook(BODY, new Headers({ 'Eka-Webhook-Signature': reference(BODY, t) }), {
      signingKey: KEY,
      store,
    });
    expect(first).toMatchObject({ disposition: 'new', identity: 'id:evt-1', verified: true, signedAt: t });
    const replay = await refusal(
      verifyWebhook(BODY, { 'eka-webhook-signature': reference(BODY, t) }, { signingKey: KEY, store }),
    );
    expect(replay).toMatchObject({ code: 'ERR_WEBHOOK_REPLAYED', status: 409 });
    const resigned = await verifyWebhook(
      BODY,
      { 'eka-webhook-signature': reference(BODY, t + 1) },
      { signingKey: KEY, store },
    );
    expect(resigned.disposition).toBe('duplicate');
    // Released after a failed handler, the identity is new again for the next delivery.
    await first.release();
    const retry = await verifyWebhook(
      BODY,
      { 'eka-webhook-signature': reference(BODY, t + 2) },
      { signingKey: KEY, store },
    );
    expect(retry.disposition).toBe('new');
  });

  it('keys the identity on the transaction and event name when there is no event_id', async () => {
    const store = new MemoryStore();
    const body = '{"event":"v2rx.completed","data":{"transaction_id":"t-1","status":"completed"}}';
    const verified = await verifyWebhook(
      body,
      { 'eka-webhook-signature': reference(body, now()) },
      { signingKey: KEY, store },
    );
    expect(verified.identity).toBe('txn:t-1:v2rx.completed');
    const other = '{"event":"v2rx.started","data":{"transaction_id":"t-1"}}';
    const ignored = await verifyWebhook(
      other,
      { 'eka-webhook-signature': reference(other, now()) },
      { signingKey: KEY, store },
    );
    expect(ignored.disposition).toBe('ignored');
  });

  it('without a store shares one bounded in-memory store across calls in the process', async () => {
    const t = now();
    const body = BODY.replace('evt-1', 'evt-default-store');
    await verifyWebhook(body, { 'eka-webhook-signature': reference(body, t) }, { signingKey: KEY });
    const replay = await refusal(
      verifyWebhook(body, { 'eka-webhook-signature': reference(body, t) }, { signingKey: KEY }),
    );
    expect(replay.code).toBe('ERR_WEBHOOK_REPLAYED');
  });

  it('insists on a signing key unless told the subscription has none', async () => {
    await expect(verifyWebhook(BODY, {}, {})).rejects.toThrow(/signingKey/);
    const unsigned = await verifyWebhook(
      BODY.replace('evt-1', 'evt-unsigned'),
      {},
      { allowUnsigned: true, store: new MemoryStore() },
    );
    expect(unsigned).toMatchObject({ verified: false, signedAt: undefined, disposition: 'new' });
  });
});

describe('identity leases (ack after-handler)', () => {
  it('a lease that is never settled (the process died) lets the event be delivered again once it ends', async () => {
    const clock = { ms: Date.now() };
    const store = new MemoryStore({ now: () => clock.ms });
    const t = now();
    const options = { signingKey: KEY, store, leaseSeconds: 60 };
    const first = await verifyWebhook(BODY, { 'eka-webhook-signature': reference(BODY, t) }, options);
    expect(first.disposition).toBe('new');
    const during = await verifyWebhook(BODY, { 'eka-webhook-signature': reference(BODY, t + 1) }, options);
    expect(during).toMatchObject({ disposition: 'duplicate', inProgress: true });
    clock.ms += 61_000;
    const after = await verifyWebhook(BODY, { 'eka-webhook-signature': reference(BODY, t + 2) }, options);
    expect(after.disposition).toBe('new');
    // Settled, the identity outlives the lease.
    await after.settle();
    clock.ms += 3_600_000;
    const later = await verifyWebhook(
      BODY,
      { 'eka-webhook-signature': reference(BODY, now()) },
      {
        ...options,
        nowSeconds: now,
      },
    );
    expect(later).toMatchObject({ disposition: 'duplicate', inProgress: false });
  });

  it('the receiver answers 503 ERR_WEBHOOK_IN_PROGRESS to a re-signed delivery while the first is still handled', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const handling = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const handle = webhookHandler({
      signingKey: KEY,
      store: new MemoryStore(),
      onEvent: () => {
        entered();
        return gate;
      },
    });
    const t = now();
    const request = (signature: string) =>
      new Request('http://127.0.0.1/webhook', {
        method: 'POST',
        body: BODY,
        headers: { 'eka-webhook-signature': signature },
      });
    const first = handle(request(reference(BODY, t)));
    await handling;
    const during = await handle(request(reference(BODY, t + 1)));
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ error: { code: 'ERR_WEBHOOK_IN_PROGRESS' } });
    release();
    expect((await first).status).toBe(200);
    const after = await handle(request(reference(BODY, t + 2)));
    expect(await after.json()).toEqual({ received: true, handled: false, duplicate: true });
  });
});

describe('webhookHandler() for Web-standard servers', () => {
  const request = (body: BodyInit, headers: Record<string, string>) =>
    new Request('http://127.0.0.1/webhook', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

  it('answers after onEvent by default, and 500 with the identity released when it throws', async () => {
    let calls = 0;
    const handle = webhookHandler({
      signingKey: KEY,
      store: new MemoryStore(),
      onEvent: () => {
        calls++;
        if (calls === 1) throw new Error('queue down');
      },
      onError: () => {},
    });
    const t = now();
    const failed = await handle(request(BODY, { 'eka-webhook-signature': reference(BODY, t) }));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      error: {
        code: 'ERR_WEBHOOK_HANDLER_FAILED',
        type: 'webhook.handler.failed',
        message: 'Internal error',
      },
    });
    const retried = await handle(request(BODY, { 'eka-webhook-signature': reference(BODY, t + 1) }));
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ received: true, handled: true, duplicate: false });
    expect(calls).toBe(2);
  });

  it("with ack 'before-handler' answers while onEvent is still running", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let done = false;
    const handle = webhookHandler({
      signingKey: KEY,
      ack: 'before-handler',
      store: new MemoryStore(),
      onEvent: async () => {
        await gate;
        done = true;
      },
    });
    const response = await handle(request(BODY, { 'eka-webhook-signature': reference(BODY, now()) }));
    expect(response.status).toBe(200);
    expect(done).toBe(false);
    release();
  });

  it('refuses a streamed body past the limit with 413 and Connection: close', async () => {
    const handle = webhookHandler({
      signingKey: KEY,
      limit: '1kb',
      store: new MemoryStore(),
      onEvent: () => {},
    });
    const chunks = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(600));
      },
    });
    const response = await handle(request(chunks, { 'eka-webhook-signature': reference('x', now()) }));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'ERR_WEBHOOK_BODY_TOO_LARGE',
    );
  });
});

describe('WebhookError', () => {
  it('is a JweTransportError with its own stable code, status and type', async () => {
    const error = await refusal(verifyWebhookSignature(BODY, undefined, { signingKey: KEY }));
    expect(error).toBeInstanceOf(JweTransportError);
    expect(isJweTransportError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'WebhookError',
      code: 'ERR_WEBHOOK_SIGNATURE_MISSING',
      type: 'webhook.signature.missing',
      status: 401,
    });
  });
});
