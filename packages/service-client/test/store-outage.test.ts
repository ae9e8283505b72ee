// Receivers whose Redis goes away and comes back, with both Redis clients, against a real
// redis-server that is stopped and started again on the same port.
import { createHmac, randomUUID } from 'node:crypto';
import { MemoryStore, type WebhookEvent } from '@jwe-transport/service-client';
import { webhookReceiver } from '@jwe-transport/service-client/express';
import { connectRedisStore, type KeyValueStore, redisStore } from '@jwe-transport/service-client/redis';
import { freePort, type RunningRedis, startRedis } from '@jwe-transport/test-support/redis/server';
import express from 'express';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type Running } from './support/express.js';

const SIGNING_KEY = 'whsec-store-outage-0123';
const now = () => Math.floor(Date.now() / 1000);
const sign = (body: string, t: number) =>
  `t=${t},v1=${createHmac('sha256', SIGNING_KEY).update(`${t}.${body}`).digest('hex')}`;
const notification = (transactionId: string) =>
  JSON.stringify({
    event: 'v2rx.completed',
    data: { transaction_id: transactionId, status: 'completed', session_id: transactionId },
    timestamp: new Date().toISOString(),
  });

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** An Express app with only the receiver mounted: no error handler of the application's. */
async function receiver(store: KeyValueStore | undefined, storeTimeoutMs = 300) {
  const handled: WebhookEvent[] = [];
  const logged: string[] = [];
  const app = express();
  app.post(
    '/webhook',
    webhookReceiver({
      signingKey: SIGNING_KEY,
      ...(store ? { store } : {}),
      storeTimeoutMs,
      retryAfterSeconds: 2,
      log: (line) => logged.push(line),
      onEvent: (event) => void handled.push(event),
    }),
  );
  const running: Running = await listen(app);
  cleanups.push(() => running.close());
  const deliver = async (body: string, t = now()) => {
    const response = await fetch(`${running.url}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'eka-webhook-signature': sign(body, t) },
      body,
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      contentType: response.headers.get('content-type'),
      body: (await response.json()) as { error?: { code: string }; handled?: boolean },
    };
  };
  return { handled, logged, deliver };
}

async function redisOnFreePort(): Promise<RunningRedis> {
  const redis = await startRedis({ port: await freePort() });
  cleanups.push(() => redis.stop());
  return redis;
}

describe('a receiver whose Redis stops and starts again', () => {
  it('with an ioredis client passed in (commands queue while offline): 503 with Retry-After within storeTimeoutMs, onEvent not run, one log line per outage, and the event is handled once Redis is back', async () => {
    let redis = await redisOnFreePort();
    const client = new Redis(redis.url);
    const clientErrors: string[] = [];
    client.on('error', (error: NodeJS.ErrnoException) => clientErrors.push(error.code ?? error.message));
    cleanups.push(async () => client.disconnect());
    const { handled, logged, deliver } = await receiver(redisStore(client, { prefix: `${randomUUID()}:` }));

    const before = notification('txn-before');
    expect((await deliver(before)).body).toEqual({ received: true, handled: true, duplicate: false });

    await redis.stop('SIGKILL');
    const during = notification('txn-during');
    const refused = [await deliver(during), await deliver(during, now() - 1)];
    for (const answer of refused) {
      expect(answer).toMatchObject({
        status: 503,
        retryAfter: '2',
        contentType: expect.stringMatching(/^application\/json/),
        body: { error: { code: 'ERR_WEBHOOK_STORE_UNAVAILABLE' } },
      });
    }
    expect(handled.map((event) => event.transactionId)).toEqual(['txn-before']);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('did not answer within 300 ms');
    expect(logged[0]).toContain('storeTimeoutMs (300 ms)');

    // Back on the same port: the client reconnects by itself and runs what it had queued (the
    // claims that timed out), which the receiver then undoes. A PING answered after them orders it.
    const ready = new Promise((resolve) => client.once('ready', resolve));
    redis = await startRedis({ port: redis.port });
    cleanups.push(() => redis.stop());
    await ready;
    await client.ping();
    const after = await deliver(during, now() + 1);
    expect(after.body).toEqual({ received: true, handled: true, duplicate: false });
    expect(await deliver(during, now() + 2)).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(handled.map((event) => event.transactionId)).toEqual(['txn-before', 'txn-during']);
    expect(logged).toHaveLength(2);
    expect(logged[1]).toContain('answers again');
    expect(clientErrors.length).toBeGreaterThan(0);
  });

  it('with connectRedisStore() on node-redis (no offline queue): refused at once while down, recovers by itself, logs the outage and the recovery once each', async () => {
    let redis = await redisOnFreePort();
    const storeLog: string[] = [];
    let back: (() => void) | undefined;
    const store = await connectRedisStore(redis.url, {
      client: 'redis',
      prefix: `${randomUUID()}:`,
      log: (line) => {
        storeLog.push(line);
        if (line.includes('connected again')) back?.();
      },
    });
    cleanups.push(() => store.close());
    const { handled, logged, deliver } = await receiver(store, 2000);

    await redis.stop('SIGKILL');
    const during = notification('txn-during');
    for (const t of [now(), now() - 1, now() - 2]) {
      expect(await deliver(during, t)).toMatchObject({
        status: 503,
        body: { error: { code: 'ERR_WEBHOOK_STORE_UNAVAILABLE' } },
      });
    }
    expect(handled).toEqual([]);
    expect(logged).toHaveLength(1);

    const reconnected = new Promise<void>((resolve) => {
      back = resolve;
    });
    redis = await startRedis({ port: redis.port });
    cleanups.push(() => redis.stop());
    await reconnected;
    expect((await deliver(during, now() + 1)).body).toEqual({
      received: true,
      handled: true,
      duplicate: false,
    });
    expect(handled.map((event) => event.transactionId)).toEqual(['txn-during']);
    expect(logged).toHaveLength(2);
    expect(storeLog.filter((line) => line.includes('connection lost'))).toHaveLength(1);
    expect(storeLog.filter((line) => line.includes('connected again'))).toHaveLength(1);
  });
});

describe('connectRedisStore() with Redis unreachable at start', () => {
  it.each(['ioredis', 'redis'] as const)(
    'fails with ERR_STORE_UNREACHABLE on %s, naming the host without the password',
    async (client) => {
      const port = await freePort();
      const error = await connectRedisStore(`redis://app:s3cret-pass@127.0.0.1:${port}/0`, {
        client,
        connectTimeoutMs: 500,
      }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'StoreError', code: 'ERR_STORE_UNREACHABLE' });
      expect((error as Error).message).toContain(`redis://127.0.0.1:${port}/0`);
      expect((error as Error).message).not.toContain('s3cret-pass');
    },
  );
});

describe('node-redis and ioredis as stores', () => {
  it.each([
    ['ioredis', 'ioredis'],
    ['redis 5', 'redis'],
    ['redis 4', 'redis4'],
  ] as const)('%s: claim, get, set and an owner-only release behave alike', async (_name, library) => {
    const redis = await redisOnFreePort();
    let store: KeyValueStore;
    if (library === 'ioredis') {
      const client = new Redis(redis.url);
      cleanups.push(() => client.quit());
      store = redisStore(client, { prefix: 'p:' });
    } else if (library === 'redis') {
      const { createClient } = await import('redis');
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      await client.connect();
      cleanups.push(() => client.close());
      // No cast: node-redis's own client type is accepted as it is.
      store = redisStore(client, { prefix: 'p:' });
    } else {
      const { createClient } = await import('redis4');
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      await client.connect();
      cleanups.push(() => client.quit());
      store = redisStore(client, { prefix: 'p:' });
    }
    expect(await store.claim('k', 'a', 10_000)).toBe(true);
    expect(await store.claim('k', 'b', 10_000)).toBe(false);
    expect(await store.get('k')).toBe('a');
    await store.release('k', 'b');
    expect(await store.get('k')).toBe('a');
    await store.release('k', 'a');
    expect(await store.get('k')).toBeUndefined();
    await store.set('k', 'c', 10_000);
    expect(await store.get('k')).toBe('c');
  });
});

describe('receivers in one process', () => {
  it('each have their own default in-memory store: the same signed event is new to both', async () => {
    const first = await receiver(undefined);
    const second = await receiver(undefined);
    const body = notification('txn-shared');
    const t = now();
    expect((await first.deliver(body, t)).body).toEqual({ received: true, handled: true, duplicate: false });
    expect((await second.deliver(body, t)).body).toEqual({ received: true, handled: true, duplicate: false });
    // Each still refuses its own replay.
    expect((await first.deliver(body, t)).body).toMatchObject({ error: { code: 'ERR_WEBHOOK_REPLAYED' } });
  });

  it('the Express receiver answers refusals itself as JSON, with no error handler mounted', async () => {
    const { deliver } = await receiver(new MemoryStore());
    const response = await deliver('{"event":"v2rx.completed"}', now() - 10_000);
    expect(response.status).toBe(401);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ error: { code: 'ERR_WEBHOOK_TIMESTAMP_STALE' } });
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.js|<html|stack/i);
  });
});
