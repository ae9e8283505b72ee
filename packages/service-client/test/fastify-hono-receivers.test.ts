// The Fastify and Hono receivers over real HTTP on 127.0.0.1: thin adapters with the same
// verification, de-duplication and acknowledgement as every other receiver.
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { MemoryStore, type WebhookEvent } from '@jwe-transport/service-client';
import { type FastifyWebhookOptions, fastifyWebhook } from '@jwe-transport/service-client/fastify';
import { honoWebhook } from '@jwe-transport/service-client/hono';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';

const KEY = 'whsec-frameworks-0123456789';
const now = () => Math.floor(Date.now() / 1000);
const sign = (body: string, t: number) =>
  `t=${t},v1=${createHmac('sha256', KEY).update(`${t}.${body}`).digest('hex')}`;
const BODY =
  '{ "event": "v2rx.completed", "data": { "transaction_id": "txn-fw", "status": "completed" }, "timestamp": "2026-11-23T10:00:00Z" }';

interface Server {
  url: string;
  close(): Promise<void>;
}

async function startFastify(options: Omit<FastifyWebhookOptions, 'signingKey'>): Promise<Server> {
  const app = Fastify();
  // The rest of the app keeps its JSON parsing.
  app.post('/echo', async (request) => request.body);
  await app.register(fastifyWebhook, { signingKey: KEY, path: '/webhook', ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

async function startHono(options: Omit<FastifyWebhookOptions, 'signingKey'>): Promise<Server> {
  const app = new Hono();
  app.post('/webhook', honoWebhook({ signingKey: KEY, ...options }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const running = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(running));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const frameworks = [
  { name: 'Fastify', start: startFastify },
  { name: 'Hono', start: startHono },
];

describe.each(frameworks)('$name receiver', ({ start }) => {
  it('hands a signed event to onEvent once, refuses a replay, answers a re-signed duplicate, and releases on failure', async () => {
    const events: WebhookEvent[] = [];
    let failNext = true;
    const server = await start({
      store: new MemoryStore(),
      onEvent: (event) => {
        if (failNext) {
          failNext = false;
          throw new Error('first attempt fails');
        }
        events.push(event);
      },
      onError: () => {},
    });
    const post = (signature: string, body = BODY) =>
      fetch(`${server.url}/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'eka-webhook-signature': signature },
        body,
      });
    try {
      const t = now();
      const failed = await post(sign(BODY, t));
      expect(failed.status).toBe(500);
      const delivered = await post(sign(BODY, t + 1));
      expect(delivered.status).toBe(200);
      expect(await delivered.json()).toEqual({ received: true, handled: true, duplicate: false });
      const replay = await post(sign(BODY, t + 1));
      expect(replay.status).toBe(409);
      expect(((await replay.json()) as { error: { code: string } }).error.code).toBe('ERR_WEBHOOK_REPLAYED');
      const duplicate = await post(sign(BODY, t + 2));
      expect(await duplicate.json()).toEqual({ received: true, handled: false, duplicate: true });
      const forged = await post(sign(BODY.replace('txn-fw', 'txn-other'), t));
      expect(forged.status).toBe(401);
      expect(events.map((event) => event.transactionId)).toEqual(['txn-fw']);
    } finally {
      await server.close();
    }
  });

  it('refuses a body over the limit with 413', async () => {
    const server = await start({ store: new MemoryStore(), limit: 64, onEvent: () => {} });
    try {
      const response = await fetch(`${server.url}/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'eka-webhook-signature': sign(BODY, now()) },
        body: BODY,
      });
      expect(response.status).toBe(413);
    } finally {
      await server.close();
    }
  });
});

it('the Fastify plugin keeps its raw-body parser to its own routes', async () => {
  const server = await startFastify({ store: new MemoryStore(), onEvent: () => {} });
  try {
    const response = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({ a: 1 });
  } finally {
    await server.close();
  }
});
