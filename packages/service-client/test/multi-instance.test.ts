// Two receiver processes on one real redis-server, and two token processes sharing one pair.
import { createHmac, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type RunningRedis, startRedis } from '@jwe-transport/test-support/redis/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startChild } from './support/child.js';
import { CLIENT_ID, CLIENT_SECRET, startTestService } from './support/service-server.js';

const SIGNING_KEY = 'whsec-multi-instance-0123';
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const sign = (body: string, t: number) =>
  `t=${t},v1=${createHmac('sha256', SIGNING_KEY).update(`${t}.${body}`).digest('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

function notification(transactionId: string): string {
  return JSON.stringify({
    event: 'v2rx.completed',
    data: { transaction_id: transactionId, status: 'completed', session_id: transactionId },
    timestamp: new Date().toISOString(),
  });
}

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('two receiver processes on one Redis', () => {
  let receivers: Child[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    receivers = [0, 1].map((index) =>
      startChild(fixture('receiver-process.mjs'), {
        SIGNING_KEY,
        REDIS_URL: redis.url,
        ...(index === 0 ? { FAIL_ONCE: 'flaky-txn' } : {}),
      }),
    );
    for (const receiver of receivers) urls.push((await receiver.next()).replace(/^listening /, ''));
  });
  // Also when an assertion failed before the test stopped them.
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
  });

  const deliver = (instance: number, body: string, signature: string) =>
    fetch(urls[instance]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'eka-webhook-signature': signature },
      body,
    }).then(async (response) => {
      const body = (await response.json()) as Record<string, unknown> & { error?: { code: string } };
      // The receiver's own JSON refusal, reduced to its stable code.
      return { status: response.status, body: body.error ? { error: { code: body.error.code } } : body };
    });

  it('hands each event to onEvent once across both instances, refuses replays and re-signed duplicates, and a failed handler releases the event', async () => {
    const t = now();
    // 1. Ten events, each delivered to both instances at once with the same signature.
    const ids = Array.from({ length: 10 }, () => `txn-${randomUUID()}`);
    const concurrent = await Promise.all(
      ids.map(async (id) => {
        const body = notification(id);
        const signature = sign(body, t);
        return Promise.all([deliver(0, body, signature), deliver(1, body, signature)]);
      }),
    );
    for (const pair of concurrent) {
      expect(pair.map((answer) => answer.status).sort()).toEqual([200, 409]);
    }
    // 1b. Ten more, each signed separately for each instance (a sender retrying elsewhere), at once.
    const resignedIds = Array.from({ length: 10 }, () => `txn-${randomUUID()}`);
    const racing = await Promise.all(
      resignedIds.map(async (id) => {
        const body = notification(id);
        return Promise.all([deliver(0, body, sign(body, t)), deliver(1, body, sign(body, t - 1))]);
      }),
    );
    for (const pair of racing) {
      // One instance handles it; the other sees it handled (200, duplicate) or still in hand (503).
      const handledBy = pair.filter((answer) => answer.status === 200 && answer.body.handled === true);
      const other = pair.find((answer) => !handledBy.includes(answer));
      expect(handledBy).toHaveLength(1);
      expect([
        { status: 200, body: { received: true, handled: false, duplicate: true } },
        { status: 503, body: { error: { code: 'ERR_WEBHOOK_IN_PROGRESS' } } },
      ]).toContainEqual(other);
    }
    ids.push(...resignedIds);
    // 2. A captured delivery replayed to the other instance.
    const replayId = `txn-${randomUUID()}`;
    const replayBody = notification(replayId);
    const replaySignature = sign(replayBody, t);
    expect((await deliver(0, replayBody, replaySignature)).status).toBe(200);
    const replayed = await deliver(1, replayBody, replaySignature);
    expect(replayed).toEqual({ status: 409, body: { error: { code: 'ERR_WEBHOOK_REPLAYED' } } });
    // 3. The same event re-signed with a new timestamp, at the other instance.
    const resigned = await deliver(1, replayBody, sign(replayBody, t + 1));
    expect(resigned).toEqual({ status: 200, body: { received: true, handled: false, duplicate: true } });
    // 4. ack 'after-handler': instance 0's handler fails once; the retry at instance 1 delivers it.
    const flakyBody = notification('flaky-txn');
    const failed = await deliver(0, flakyBody, sign(flakyBody, t));
    expect(failed).toEqual({ status: 500, body: { error: { code: 'ERR_WEBHOOK_HANDLER_FAILED' } } });
    const retried = await deliver(1, flakyBody, sign(flakyBody, t + 2));
    expect(retried.body).toEqual({ received: true, handled: true, duplicate: false });

    await Promise.all(receivers.map((receiver) => receiver.stop()));
    const handled = receivers.flatMap((receiver) => receiver.lines.slice(1).map((line) => JSON.parse(line)));
    const perTransaction = new Map<string, number>();
    for (const line of handled)
      perTransaction.set(line.transactionId, (perTransaction.get(line.transactionId) ?? 0) + 1);
    expect([...perTransaction.keys()].sort()).toEqual([...ids, replayId, 'flaky-txn'].sort());
    expect([...perTransaction.values()].every((count) => count === 1)).toBe(true);
    expect(handled.find((line) => line.transactionId === 'flaky-txn')?.pid).toBe(receivers[1]?.pid);
    const byInstance = receivers.map((receiver) => receiver.lines.length - 1);
    console.log(
      `two receivers on one Redis: ${handled.length} events handed to onEvent (instance A ${byInstance[0]}, instance B ${byInstance[1]}) for ${perTransaction.size} distinct events; ` +
        `re-signed pairs answered ${racing.map((pair) => pair.map((answer) => answer.status).join('/')).join(' ')}; ` +
        `same-signature pairs answered ${concurrent.map((pair) => pair.map((answer) => answer.status).join('/')).join(' ')}; ` +
        `replay ${replayed.status}; re-signed duplicate ${resigned.status} duplicate=${String(resigned.body.duplicate)}; ` +
        `failed handler ${failed.status}, retry ${retried.status} handled=${String(retried.body.handled)}`,
    );
  });
});

describe('a token pair shared by two processes through Redis', () => {
  it('logs in once and refreshes once for both processes, which end with the same new pair', async () => {
    const service = await startTestService();
    const env = {
      BASE_URL: service.url,
      CLIENT_ID,
      CLIENT_SECRET,
      REDIS_URL: redis.url,
      PREFIX: `test-${randomUUID()}:`,
    };
    const processes = [
      startChild(fixture('token-process.mjs'), env),
      startChild(fixture('token-process.mjs'), env),
    ];
    try {
      for (const child of processes) expect(await child.next()).toBe('ready');
      processes[0]!.send('token');
      const first = JSON.parse(await processes[0]!.next());
      processes[1]!.send('token');
      const second = JSON.parse(await processes[1]!.next());
      expect(second.token).toBe(first.token);
      expect(service.counts).toMatchObject({ logins: 1, refreshes: 0 });
      // The service rejected the token in both processes at once: one refresh between them.
      for (const child of processes) child.send(`renew ${first.token}`);
      const renewed = await Promise.all(processes.map(async (child) => JSON.parse(await child.next())));
      expect(renewed[0].token).not.toBe(first.token);
      expect(renewed[1].token).toBe(renewed[0].token);
      expect(service.counts).toMatchObject({ logins: 1, refreshes: 1 });
      expect(renewed.map((answer) => answer.refreshes).sort()).toEqual([0, 1]);
    } finally {
      await Promise.all(processes.map((child) => child.stop()));
      await service.close();
    }
  });
});
