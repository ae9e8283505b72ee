// The transcription workflow end to end over 127.0.0.1: the reference service (with its workflow
// routers), a real webhook receiver, and a client built from the ky plugin's auth and
// transcription helpers.
import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptJson } from '@jwe-transport/codec';
import { jweErrorHandler, type WebhookEvent, webhookReceiver } from '@jwe-transport/express-middleware';
import {
  AuthError,
  clientCredentialsLogin,
  createTokenSession,
  createWebhookSubscription,
  jwe,
  kyAuth,
  pollSessionResult,
  refreshTokenExchange,
  TEMPLATE_IDS,
  type TokenSession,
  TranscriptionError,
  type TranscriptionParams,
  uploadAudio,
} from '@jwe-transport/ky-plugin';
import express from 'express';
import ky from 'ky';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWorkflow,
  type RunningService,
  startService,
  type Workflow,
  type WorkflowConfig,
} from '../src/index.js';

const CLIENT_ID = 'e2e-client';
const CLIENT_SECRET = 'e2e-client-secret-0123';
const SIGNING_KEY = 'whsec-e2e-0123456789';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A mono 16-bit PCM WAV of a sine tone. */
function wav(seconds: number, hz = 440, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * index) / rate) * 12000), index * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

interface Receiver {
  url: string;
  events: WebhookEvent[];
  /** Raw deliveries recorded at /raw (body and signature header). */
  raw: { body: string; signature: string | undefined }[];
  next(): Promise<WebhookEvent>;
  close(): Promise<void>;
}

async function listen(app: express.Express): Promise<{ url: string; server: Server }> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function startReceiver(signingKey: string): Promise<Receiver> {
  const events: WebhookEvent[] = [];
  const raw: Receiver['raw'] = [];
  const waiting: ((event: WebhookEvent) => void)[] = [];
  const app = express();
  app.post('/raw', express.text({ type: '*/*' }), (req, res) => {
    raw.push({ body: req.body as string, signature: req.get('eka-webhook-signature') });
    res.sendStatus(204);
  });
  app.post(
    '/hooks',
    webhookReceiver({
      signingKey,
      onEvent: (event) => {
        events.push(event);
        waiting.shift()?.(event);
      },
    }),
  );
  app.use(jweErrorHandler());
  const { url, server } = await listen(app);
  return {
    url,
    events,
    raw,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PARAMS: TranscriptionParams = {
  transaction_id: 'visit-0001',
  action: 'scribe-v2',
  extra_data: { mode: 'dictation', model_type: 'lite' },
  output_format: {
    input_language: ['en-IN', 'hi'],
    output_template: [
      { template_id: 'clinical_notes_template', codification_needed: true },
      { template_id: 'eka_emr_template', codification_needed: false },
      { template_id: 'transcript_template', codification_needed: false },
    ],
  },
};

interface Setup {
  service: RunningService;
  workflow: Workflow;
  receiver: Receiver;
  session: TokenSession;
  api: typeof ky;
  clock: { now: number };
}

describe('transcription workflow against the reference service', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });

  async function setUp(
    overrides: Partial<WorkflowConfig> = {},
    clientSecret = CLIENT_SECRET,
  ): Promise<Setup> {
    const clock = { now: Date.now() };
    const docsDir = await mkdtemp(join(tmpdir(), 'workflow-e2e-'));
    cleanups.push(() => rm(docsDir, { recursive: true, force: true }));
    const workflow = createWorkflow({
      clients: { [CLIENT_ID]: CLIENT_SECRET },
      keys: { k1: 'e2e-shared-key-1' },
      accessTokenSeconds: 60,
      processingMs: 20,
      now: () => clock.now,
      ...overrides,
    });
    cleanups.push(() => workflow.close());
    const service = await startService(
      {
        keys: { k1: 'e2e-shared-key-1' },
        tokens: ['static-token'],
        port: 0,
        docsDir,
        uploadLimit: '5mb',
        generated: {},
      },
      { workflow },
    );
    cleanups.push(() => service.close());
    const receiver = await startReceiver(SIGNING_KEY);
    cleanups.push(() => receiver.close());
    const session = createTokenSession({
      login: clientCredentialsLogin({ baseUrl: service.url, clientId: CLIENT_ID, clientSecret }),
      refresh: refreshTokenExchange({ baseUrl: service.url }),
      refreshMarginSeconds: 10,
      now: () => clock.now,
    });
    const api = ky.create({ prefixUrl: service.url, retry: { limit: 2 } }).extend(kyAuth({ session, ky }));
    return { service, workflow, receiver, session, api, clock };
  }

  it('logs in, subscribes, uploads, receives the signed notification and decodes every template', async () => {
    const { api, receiver, workflow } = await setUp();
    const subscription = await createWebhookSubscription(api, {
      endpoint: `${receiver.url}/hooks`,
      signingKey: SIGNING_KEY,
      protocol: 'http',
    });
    expect(subscription.status).toBe('success');
    expect(subscription.id).toMatch(/^[0-9a-f-]{36}$/);

    const dir = await mkdtemp(join(tmpdir(), 'workflow-audio-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const first = wav(0.5);
    const second = wav(0.25, 880);
    await writeFile(join(dir, 'consult part 2.wav'), second);

    const notified = receiver.next();
    const entries = await uploadAudio(
      api,
      [{ name: 'consult-1.wav', data: first }, { path: join(dir, 'consult part 2.wav') }],
      PARAMS,
    );
    expect(entries.map((entry) => [entry.file_name, entry.transaction_id, entry.status])).toEqual([
      ['consult-1.wav', 'visit-0001', 'accepted'],
      ['consult part 2.wav', 'visit-0001', 'accepted'],
    ]);

    const event = await notified;
    expect(event).toMatchObject({
      event: 'v2rx.completed',
      transactionId: 'visit-0001',
      sessionId: 'visit-0001',
      status: 'completed',
      shape: 'event',
    });
    expect(Date.parse(event.occurredAt ?? '')).not.toBeNaN();

    const { httpStatus, decoded } = await pollSessionResult(api, event.sessionId, {
      intervalMs: 20,
      expectedTemplates: TEMPLATE_IDS,
    });
    expect(httpStatus).toBe(200);
    expect(decoded).toMatchObject({
      complete: true,
      status: 'success',
      shape: 'array',
      missingTemplates: [],
    });
    expect(decoded.documents.map((document) => [document.templateId, document.format])).toEqual([
      ['clinical_notes_template', 'markdown'],
      ['eka_emr_template', 'json'],
      ['transcript_template', 'text'],
    ]);
    const [notes, emr, transcript] = decoded.documents;
    const files = [
      { name: 'consult-1.wav', size: first.length, sha256: sha256(first), content_type: 'audio/wav' },
      { name: 'consult part 2.wav', size: second.length, sha256: sha256(second), content_type: 'audio/wav' },
    ];
    expect(emr?.json).toEqual({
      session_id: 'visit-0001',
      action: 'scribe-v2',
      mode: 'dictation',
      model_type: 'lite',
      languages: ['en-IN', 'hi'],
      codification_needed: false,
      files,
      note: expect.stringMatching(/does not transcribe speech/),
    });
    for (const file of files) {
      expect(notes?.text).toContain(`| ${file.name} | ${file.size} | audio/wav | ${file.sha256} |`);
      expect(transcript?.text).toContain(
        `${file.name}, ${file.size} bytes, audio/wav, sha256 ${file.sha256}`,
      );
    }
    expect(notes?.text).toContain('- Codification needed: yes');
    expect(notes?.text).toContain('- Mode: dictation; model: lite');
    expect(transcript?.text).toContain('languages: en-IN, hi');
    for (const document of decoded.documents) {
      expect(document).toMatchObject({ status: 'success', errors: [], warnings: [], problems: [] });
    }
    expect(workflow.deliveries.records).toEqual([
      expect.objectContaining({ sessionId: 'visit-0001', attempt: 1, signed: true, status: 200 }),
    ]);
    expect(workflow.tokens.counts).toMatchObject({ logins: 1, refreshes: 0 });
  });

  it('answers 202 while processing, then 200; the poller follows it', async () => {
    const { api, workflow } = await setUp({ processingMs: 3_600_000 });
    await uploadAudio(api, [{ name: 'a.wav', data: wav(0.1) }], { ...PARAMS, transaction_id: 'slow-1' });
    const pending = await api.get('voice/api/v2/transcriptions/slow-1', {
      searchParams: { action: 'scribe-v2' },
      throwHttpErrors: false,
    });
    expect(pending.status).toBe(202);
    expect(pending.headers.get('retry-after')).toBe('1');
    const timeout = await pollSessionResult(api, 'slow-1', { intervalMs: 10, timeoutMs: 0 }).catch(
      (e: unknown) => e,
    );
    expect(timeout).toBeInstanceOf(TranscriptionError);
    expect((timeout as TranscriptionError).code).toBe('ERR_RESULT_TIMEOUT');
    workflow.sessions.complete('slow-1');
    const done = await pollSessionResult(api, 'slow-1', { intervalMs: 10 });
    expect(done.httpStatus).toBe(200);
    expect(done.decoded.complete).toBe(true);
  });

  it('answers 206 for a partial result and keeps per-item warnings', async () => {
    const { api } = await setUp();
    await uploadAudio(
      api,
      [
        { name: 'a.wav', data: wav(0.1) },
        { name: 'silence.wav', data: new Uint8Array(0) },
      ],
      {
        ...PARAMS,
        transaction_id: 'partial-1',
      },
    );
    const { httpStatus, decoded } = await pollSessionResult(api, 'partial-1', { intervalMs: 20 });
    expect(httpStatus).toBe(206);
    expect(decoded.status).toBe('partial_success');
    for (const document of decoded.documents) {
      expect(document.status).toBe('partial_success');
      expect(document.warnings).toEqual([{ code: 'audio.empty', message: 'The file silence.wav is empty.' }]);
    }
  });

  it('refreshes an expiring token once for twenty concurrent requests', async () => {
    const { api, workflow, clock, session } = await setUp();
    await uploadAudio(api, [{ name: 'a.wav', data: wav(0.1) }], { ...PARAMS, transaction_id: 'expiry-1' });
    const firstToken = session.tokens?.access_token;
    // 55 s of the 60 s lifetime are gone: inside the 10 s margin, so the client renews first.
    clock.now += 55_000;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => pollSessionResult(api, 'expiry-1', { intervalMs: 20 })),
    );
    expect(results.every((result) => result.decoded.complete)).toBe(true);
    expect(workflow.tokens.counts).toMatchObject({ logins: 1, refreshes: 1, failedRefreshes: 0 });
    expect(session.tokens?.access_token).not.toBe(firstToken);
  });

  it('after the service revokes the token, renews once and retries each of twenty requests', async () => {
    const { api, workflow, session } = await setUp({ processingMs: 3_600_000 });
    await uploadAudio(api, [{ name: 'a.wav', data: wav(0.1) }], { ...PARAMS, transaction_id: 'revoked-1' });
    workflow.sessions.complete('revoked-1');
    const revoked = session.tokens?.access_token;
    // The client still trusts its token; the service no longer does: every request gets a 401 first.
    workflow.tokens.revokeAccessTokens();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.get('voice/api/v2/transcriptions/revoked-1', { searchParams: { action: 'scribe-v2' } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(workflow.tokens.counts).toMatchObject({ logins: 1, refreshes: 1, failedRefreshes: 0 });
    expect(session.tokens?.access_token).not.toBe(revoked);
  });

  it('with jwe() after kyAuth(), a request retried after a 401 is sealed again under a fresh IV', async () => {
    const { workflow, session, service, receiver } = await setUp();
    const sent: { url: string; body: string }[] = [];
    const recordingFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push({ url: request.url, body: await request.clone().text() });
      return globalThis.fetch(request);
    };
    const api = ky
      .create({ prefixUrl: service.url, retry: { limit: 2 } })
      .extend(kyAuth({ session, ky }))
      // jwe() supplies ky's fetch option; the fetch that sends goes to jwe().
      .extend(jwe({ key: 'e2e-shared-key-1', kid: 'k1', fetch: recordingFetch }));
    await session.accessToken();
    workflow.tokens.revokeAccessTokens();
    const subscription = await createWebhookSubscription(api, {
      endpoint: `${receiver.url}/hooks`,
      signingKey: SIGNING_KEY,
    });
    expect(subscription.status).toBe('success');
    expect(workflow.subscriptions.size).toBe(1);
    const attempts = sent.filter((item) => item.url.endsWith('/webhook/subscriptions'));
    expect(attempts).toHaveLength(2);
    const envelopes = attempts.map((item) => JSON.parse(item.body) as { iv: string; kid: string });
    expect(envelopes[0]?.iv).not.toBe(envelopes[1]?.iv);
    expect(envelopes.map((envelope) => envelope.kid)).toEqual(['k1', 'k1']);
    const plaintexts = await Promise.all(attempts.map((item) => decryptJson(item.body, 'e2e-shared-key-1')));
    expect(plaintexts[0]).toEqual(plaintexts[1]);
    expect(plaintexts[0]).toMatchObject({ event_names: ['v2rx.completed'], signing_key: SIGNING_KEY });
    expect(workflow.tokens.counts.refreshes).toBe(1);
  });

  it('a wrong client secret says to check the client id and client secret (spec 7)', async () => {
    const { api, workflow } = await setUp({}, 'not-the-secret-000');
    const failure = await createWebhookSubscription(api, { endpoint: 'https://example.invalid/hook' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AuthError);
    expect((failure as AuthError).code).toBe('ERR_AUTH_LOGIN_FAILED');
    expect((failure as AuthError).status).toBe(401);
    expect((failure as AuthError).message).toMatch(/client id and client secret/);
    expect(workflow.tokens.counts.failedLogins).toBe(1);
  });

  it('a bad subscription and an unreadable audio path fail with what to check', async () => {
    const { api } = await setUp();
    const refused = await createWebhookSubscription(api, {
      endpoint: 'http://127.0.0.1:9/hook',
      protocol: 'https',
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TranscriptionError);
    expect((refused as TranscriptionError).code).toBe('ERR_SUBSCRIPTION_FAILED');
    expect((refused as TranscriptionError).status).toBe(400);
    expect((refused as TranscriptionError).message).toMatch(/publicly reachable/);

    const unreadable = await uploadAudio(api, [{ path: '/nonexistent/dir/visit.wav' }], PARAMS).catch(
      (error: unknown) => error,
    );
    expect((unreadable as TranscriptionError).code).toBe('ERR_UPLOAD_FILE_UNREADABLE');
    expect((unreadable as TranscriptionError).message).toMatch(
      /ENOENT.*file path is valid and the file is readable/,
    );

    const badParams = await uploadAudio(api, [{ name: 'a.wav', data: wav(0.1) }], {
      output_format: { input_language: ['xx' as 'hi'], output_template: [] },
    }).catch((error: unknown) => error);
    expect((badParams as TranscriptionError).code).toBe('ERR_TRANSCRIPTION_PARAMS_INVALID');
  });

  it('the receiver refuses deliveries signed with another key, replays and stale timestamps', async () => {
    const { api, receiver, workflow } = await setUp({ deliveryAttempts: 1 });
    // One subscription whose key the receiver does not know, one that records raw deliveries.
    await createWebhookSubscription(api, {
      endpoint: `${receiver.url}/hooks`,
      signingKey: 'some-other-key-123',
    });
    await createWebhookSubscription(api, { endpoint: `${receiver.url}/raw`, signingKey: SIGNING_KEY });
    await uploadAudio(api, [{ name: 'a.wav', data: wav(0.1) }], { ...PARAMS, transaction_id: 'forged-1' });
    await pollSessionResult(api, 'forged-1', { intervalMs: 20 });
    await workflow.deliveries.settled();
    const statuses = workflow.deliveries.records.map((record) => record.status).sort();
    expect(statuses).toEqual([204, 401]);
    expect(receiver.events).toHaveLength(0);

    // The recorded delivery is genuine: the receiver takes it once, and refuses it the second time.
    const [captured] = receiver.raw;
    expect(captured?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const send = (body: string, signature: string) =>
      fetch(`${receiver.url}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'eka-webhook-signature': signature },
        body,
      });
    const accepted = receiver.next();
    expect((await send(captured!.body, captured!.signature!)).status).toBe(200);
    expect((await accepted).sessionId).toBe('forged-1');
    const replay = await send(captured!.body, captured!.signature!);
    expect(replay.status).toBe(409);
    expect((await replay.json()).error.type).toBe('webhook.replayed');

    const stale = Math.floor(Date.now() / 1000) - 600;
    const staleSignature = `t=${stale},v1=${createHmac('sha256', SIGNING_KEY).update(`${stale}.${captured!.body}`).digest('hex')}`;
    const refused = await send(captured!.body, staleSignature);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.type).toBe('webhook.timestamp.stale');
  });

  it('the second documented notification shape reaches the application as the same event', async () => {
    const { api, receiver } = await setUp({ notificationShape: 'payload' });
    await createWebhookSubscription(api, { endpoint: `${receiver.url}/hooks`, signingKey: SIGNING_KEY });
    const notified = receiver.next();
    await uploadAudio(api, [{ name: 'a.mp3', data: new Uint8Array([0xff, 0xfb, 0x90, 0x00]) }], {
      ...PARAMS,
      transaction_id: 'shape-2',
    });
    const event = await notified;
    expect(event).toMatchObject({
      event: 'v2rx.completed',
      sessionId: 'shape-2',
      transactionId: 'shape-2',
      status: 'completed',
      shape: 'payload',
      clientId: CLIENT_ID,
      eventId: 'evt-shape-2',
    });
    const { decoded } = await pollSessionResult(api, event.sessionId, { intervalMs: 20 });
    const emr = decoded.documents[1]?.json as { files: { content_type: string }[] } | undefined;
    expect(emr?.files[0]?.content_type).toBe('audio/mpeg');
  });

  it('keeps the service’s existing routes working next to the workflow', async () => {
    const { service } = await setUp();
    const unauthorized = await fetch(`${service.url}/mr/api/v2/docs/x`);
    expect(unauthorized.status).toBe(401);
    const withStatic = await fetch(`${service.url}/mr/api/v2/docs/x`, {
      headers: { authorization: 'Bearer static-token' },
    });
    expect(withStatic.status).toBe(404);
  });
});
