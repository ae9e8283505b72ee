// The example end to end: the reference service (dist/main.js, built by the root `pnpm build`) and
// the webhook receiver as their own processes, the workflow over the documented wire between
// them; then the receiver process on its own, and two of them sharing one real redis-server.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signature } from '@jwe-transport/reference-service';
import { startRedis } from '@jwe-transport/test-support/redis/server';
import { describe, expect, it } from 'vitest';
import { startReceiverProcess, startReferenceService } from '../processes.mjs';
import { runWorkflow } from '../workflow.mjs';

const KEY = 'whsec-workflow-test-0123';

it('runs from credentials to decoded documents that describe exactly what it uploaded', async () => {
  const lines: string[] = [];
  const run = await runWorkflow({ log: (line: string) => lines.push(line) });
  expect(run.subscription.status).toBe('success');
  expect(run.started).toMatchObject({ status: 'success' });
  expect(run.event).toEqual({
    event: 'v2rx.completed',
    transaction_id: run.started.transactionId,
    status: 'completed',
  });
  expect(run.httpStatus).toBe(200);
  expect(run.result.data?.additional_data).toEqual({ source: 'examples/workflow' });
  expect(run.decoded).toMatchObject({ complete: true, status: 'success', missingTemplates: [] });
  expect(run.decoded.documents.map((document) => document.templateId)).toEqual([
    'clinical_notes_template',
    'eka_emr_template',
    'transcript_template',
  ]);
  const emr = run.decoded.documents[1]?.json as { session_id: string; model_type: string; files: unknown[] };
  expect(emr.session_id).toBe(run.started.transactionId);
  expect(emr.model_type).toBe('pro');
  expect(emr.files).toEqual(
    run.uploaded.map((file) => ({
      ...file,
      content_type: 'audio/wav',
    })),
  );
  // WAV header (44 bytes) + 16-bit mono samples at 16 kHz: 1 s and 0.5 s.
  expect(run.uploaded.map((file) => file.size)).toEqual([44 + 32_000, 44 + 16_000]);
  expect(lines.join('\n')).toContain('# Clinical notes');
});

it('fails with the message of spec 7 when the client secret is wrong', async () => {
  const docsDir = await mkdtemp(join(tmpdir(), 'workflow-wrong-secret-'));
  const service = await startReferenceService({
    CLIENT_ID: 'known-client',
    CLIENT_SECRET: 'the-right-secret-1',
    DOCS_DIR: docsDir,
  });
  try {
    const failure = await runWorkflow({
      serviceUrl: service.url,
      clientId: 'known-client',
      clientSecret: 'a-wrong-secret-12',
      log: () => {},
    }).catch((error: unknown) => error);
    expect((failure as { code?: string }).code).toBe('ERR_AUTH_LOGIN_FAILED');
    expect((failure as Error).message).toMatch(/client id and client secret/);
  } finally {
    await service.stop();
    await rm(docsDir, { recursive: true, force: true });
  }
});

/** A v2rx.completed in the payload shape, signed at `seconds` as the reference service signs it. */
function delivery(transactionId: string, eventId: string, seconds = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify({
    business_id: 'b-1',
    client_id: 'c-1',
    service_id: 'ekascribe',
    event_id: eventId,
    payload: {
      service: 'ekascribe',
      event: 'v2rx.completed',
      event_time: new Date().toISOString(),
      transaction_id: transactionId,
      data: { status: 'completed' },
    },
  });
  return { body, header: signature(body, KEY, seconds) };
}

const post = (url: string, message: { body: string; header: string }) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'eka-webhook-signature': message.header },
    body: message.body,
  });

describe('the receiver process', () => {
  it('prints one line per event, refusing replays, duplicates and bad signatures', async () => {
    const receiver = await startReceiverProcess({ SIGNING_KEY: KEY });
    try {
      const first = delivery('txn-one', 'evt-one');
      expect((await post(receiver.url, first)).status).toBe(200);
      expect(await receiver.event('txn-one')).toEqual({
        event: 'v2rx.completed',
        transaction_id: 'txn-one',
        status: 'completed',
        event_id: 'evt-one',
      });
      const replay = await post(receiver.url, first);
      expect(replay.status).toBeGreaterThanOrEqual(400);
      const resigned = await post(
        receiver.url,
        delivery('txn-one', 'evt-one', Math.floor(Date.now() / 1000) - 1),
      );
      expect(resigned.status).toBeLessThan(300); // acknowledged, but not handed on again
      const forged = {
        ...delivery('txn-two', 'evt-two'),
        header: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      };
      expect((await post(receiver.url, forged)).status).toBe(401);
      const second = delivery('txn-three', 'evt-three');
      expect((await post(receiver.url, second)).status).toBe(200);
      await receiver.event('txn-three');
      expect(receiver.events.map((event) => event.transaction_id)).toEqual(['txn-one', 'txn-three']);
    } finally {
      await receiver.stop();
    }
  });

  it('two receivers on one Redis hand each event on once and refuse replays across instances', async () => {
    const redis = await startRedis();
    const receivers = await Promise.all([
      startReceiverProcess({ SIGNING_KEY: KEY, REDIS_URL: redis.url }),
      startReceiverProcess({ SIGNING_KEY: KEY, REDIS_URL: redis.url }),
    ]);
    const [a, b] = receivers;
    try {
      const id = `txn-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 8)}`;
      const original = delivery(id, `evt-${id}`);
      expect((await post(a!.url, original)).status).toBe(200);
      await a!.event(id);
      // The same bytes at the other instance: a replay.
      expect((await post(b!.url, original)).status).toBeGreaterThanOrEqual(400);
      // The same event signed again (a retry) at the other instance: acknowledged, not handed on.
      const retry = delivery(id, `evt-${id}`, Math.floor(Date.now() / 1000) - 2);
      expect((await post(b!.url, retry)).status).toBeLessThan(300);
      // A new event at B is B's to print.
      const next = delivery(`${id}-next`, `evt-${id}-next`);
      expect((await post(b!.url, next)).status).toBe(200);
      await b!.event(`${id}-next`);
      expect(a!.events.map((event) => event.transaction_id)).toEqual([id]);
      expect(b!.events.map((event) => event.transaction_id)).toEqual([`${id}-next`]);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver?.stop()));
      await redis.stop();
    }
  });
});
