// The Redis fault test: the reference service's deliverer sends v2rx.completed through a
// round-robin balancer to two receiver processes that share a real redis-server with an
// append-only file; Redis is killed (SIGKILL) and started again on the same port and directory
// while deliveries are under way. Every event must reach onEvent exactly once in total, none lost.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Deliverer,
  EndpointPolicy,
  SubscriptionStore,
  type Transaction,
} from '@jwe-transport/reference-service';
import { type RunningRedis, startRedis } from '@jwe-transport/test-support/redis/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Child, startChild } from './support/output-child.js';

const SIGNING_KEY = 'whsec-redis-fault-0123';
const receiverScript = fileURLToPath(new URL('./fixtures/redis-fault-receiver.mjs', import.meta.url));

/** A completed, empty transaction of client `alpha`: what the deliverer notifies about. */
function completedTransaction(id: string): Transaction {
  const now = new Date().toISOString();
  return {
    id,
    owner: 'alpha',
    folder: id,
    state: 'completed',
    files: new Map(),
    objects: new Map(),
    request: undefined,
    createdAt: now,
    completedAt: now,
    output: undefined,
  };
}

/** Forwards each request to the next receiver in turn, as a load balancer would. */
async function roundRobin(targets: string[]) {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const target = new URL(targets[next++ % targets.length]!);
    const forwarded = request(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => {
      outgoing.statusCode = 502;
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dir: string;
let redis: RunningRedis;
let receivers: Child[] = [];
let balancer: Awaited<ReturnType<typeof roundRobin>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'redis-fault-'));
  redis = await startRedis({ dir });
  receivers = [
    startChild(receiverScript, {
      SIGNING_KEY,
      REDIS_URL: redis.url,
      CLIENT: 'ioredis',
      STORE_TIMEOUT_MS: '1000',
    }),
    startChild(receiverScript, {
      SIGNING_KEY,
      REDIS_URL: redis.url,
      CLIENT: 'redis',
      STORE_TIMEOUT_MS: '1000',
    }),
  ];
  const urls = await Promise.all(
    receivers.map(async (child) => (await child.line(/^listening /)).replace(/^listening /, '')),
  );
  balancer = await roundRobin(urls);
});
afterAll(async () => {
  await balancer?.close();
  await Promise.all(receivers.map((child) => child.stop()));
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

it('delivers every event to onEvent exactly once across two receivers while Redis is killed and restarted', async () => {
  const subscriptions = new SubscriptionStore();
  subscriptions.add({
    owner: 'alpha',
    eventNames: ['v2rx.completed'],
    endpoint: balancer.url,
    signingKey: SIGNING_KEY,
    protocol: 'http',
  });
  // Short waits so the test is quick; Retry-After (1 s from the receivers) is honoured up to 2 s.
  const deliverer = new Deliverer(subscriptions, new EndpointPolicy(['127.0.0.1']), {
    shape: 'event',
    attempts: 10,
    backoffMs: 200,
    maxRetryAfterMs: 2000,
    log: undefined,
  });
  const ids = (phase: string) => Array.from({ length: 10 }, (_, index) => `${phase}-${index}`);
  const records = (phase: string) =>
    deliverer.records.filter((record) => record.transactionId.startsWith(phase));

  // Before: Redis up.
  for (const id of ids('before')) deliverer.deliver(completedTransaction(id));
  await deliverer.settled();
  expect(records('before').map((record) => record.status)).toEqual(Array(10).fill(200));

  // During: Redis killed; every delivery is refused (503) at least once before it comes back.
  await redis.stop('SIGKILL');
  for (const id of ids('during')) deliverer.deliver(completedTransaction(id));
  await expect
    .poll(
      () =>
        new Set(
          records('during')
            .filter((record) => record.status === 503)
            .map((r) => r.transactionId),
        ).size,
      {
        timeout: 20_000,
      },
    )
    .toBe(10);
  expect(receivers.flatMap((child) => child.stdout).filter((line) => line.includes('"during-'))).toEqual([]);

  // After: the same port and append-only file; the retries go through, and new events too.
  redis = await startRedis({ port: redis.port, dir });
  for (const id of ids('after')) deliverer.deliver(completedTransaction(id));
  // The "before" events again, as a sender that lost its answers would: still known after the kill.
  for (const id of ids('before')) deliverer.deliver(completedTransaction(id));
  await deliverer.settled();

  await Promise.all(receivers.map((child) => child.stop()));
  const handled = receivers.flatMap((child) =>
    child.stdout
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { pid: number; transactionId: string }),
  );
  const perEvent = new Map<string, number>();
  for (const { transactionId } of handled)
    perEvent.set(transactionId, (perEvent.get(transactionId) ?? 0) + 1);
  const all = [...ids('before'), ...ids('during'), ...ids('after')];
  const statuses = new Map<string, number>();
  for (const record of deliverer.records) {
    const key = String(record.status ?? record.error);
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const lastPerDelivery = new Map<string, number | undefined>();
  for (const record of deliverer.records) lastPerDelivery.set(record.transactionId, record.status);
  const histogram = new Map<number, number>();
  for (const id of all) histogram.set(perEvent.get(id) ?? 0, (histogram.get(perEvent.get(id) ?? 0) ?? 0) + 1);
  const logs = receivers.map((child) => child.stderr);
  console.log(
    [
      `redis fault tally: ${all.length} events (10 before, 10 during, 10 after the kill; the 10 "before" sent again after the restart)`,
      `  deliveries (HTTP attempts): ${deliverer.records.length}; answers: ${[...statuses].map(([status, count]) => `${status}×${count}`).join(', ')}`,
      `  503s: ${statuses.get('503') ?? 0}; attempts per "during" event: ${ids('during')
        .map((id) => records(id).filter((r) => r.transactionId === id).length)
        .join(' ')}`,
      `  onEvent calls: ${handled.length} (receiver A ioredis ${receivers[0]!.stdout.length - 1}, receiver B node-redis ${receivers[1]!.stdout.length - 1}); events by number of onEvent calls: ${[...histogram].map(([calls, events]) => `${calls} call(s): ${events}`).join(', ')}`,
      ...logs.map((lines, index) => `  receiver ${index === 0 ? 'A' : 'B'} stderr: ${lines.join(' | ')}`),
    ].join('\n'),
  );

  expect([...perEvent.keys()].sort()).toEqual([...all].sort());
  expect([...perEvent.values()].every((count) => count === 1)).toBe(true);
  expect([...lastPerDelivery.values()].every((status) => status === 200)).toBe(true);
  for (const lines of logs) {
    expect(lines.join('\n')).not.toMatch(/Unhandled error/);
    expect(lines.filter((line) => line.includes('deliveries are answered 503')).length).toBeLessThanOrEqual(
      1,
    );
  }
  // Both receivers saw the outage, and each said so once and said once that it was over.
  const said = (pattern: RegExp) => logs.map((lines) => lines.filter((line) => pattern.test(line)).length);
  expect(said(/deliveries are answered 503/)).toEqual([1, 1]);
  expect(said(/the store answers again/)).toEqual([1, 1]);
}, 90_000);
