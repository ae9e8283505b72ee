// The package against the repository's reference service (packages/reference-service), which serves the
// documented paths: credentials to decoded documents, with the signed webhook in between.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJweFetch } from '@jwe-transport/client-core';
import { type RunningService, startService } from '@jwe-transport/reference-service';
import {
  createServiceClient,
  type FetchLike,
  MemoryStore,
  type TranscriptionError,
  type WebhookEvent,
} from '@jwe-transport/service-client';
import { webhookReceiver } from '@jwe-transport/service-client/express';
import { audioFileFromPath } from '@jwe-transport/service-client/node';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';

const CLIENT_ID = 'reference-client';
const CLIENT_SECRET = 'reference-client-secret-01';
const SIGNING_KEY = 'whsec-reference-0123456789';

let service: RunningService;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'service-client-reference-'));
  service = await startService({
    keys: { k1: 'ref-shared-key-1' },
    tokens: ['static-token-1'],
    port: 0,
    docsDir: join(dir, 'docs'),
    uploadLimit: '5mb',
    generated: {},
    workflow: { clients: { [CLIENT_ID]: CLIENT_SECRET }, processingMs: 20, webhookAllowHosts: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

it('runs from credentials to decoded documents against the reference service', async () => {
  const events: WebhookEvent[] = [];
  let notified: (event: WebhookEvent) => void = () => {};
  const notification = new Promise<WebhookEvent>((resolve) => {
    notified = resolve;
  });
  const app = express();
  app.post(
    '/webhook',
    webhookReceiver({
      signingKey: SIGNING_KEY,
      store: new MemoryStore(),
      onEvent: (event) => {
        events.push(event);
        notified(event);
      },
    }),
  );
  const receiver = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => receiver.once('listening', resolve));
  try {
    const client = createServiceClient({
      baseUrl: service.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
    const subscription = await client.subscribeWebhook({ endpoint, signingKey: SIGNING_KEY });
    expect(subscription.status).toBe('success');

    const path = join(dir, 'follow-up.wav');
    await writeFile(path, Buffer.from('RIFF....WAVEfmt follow-up'));
    const started = await client.transcribe(
      [
        { name: 'consultation.wav', data: new TextEncoder().encode('RIFF....WAVEfmt consultation') },
        await audioFileFromPath(path),
      ],
      {
        transaction_id: 'reference-visit-1',
        action: 'scribe-v2',
        extra_data: { mode: 'dictation', model_type: 'lite' },
        output_format: {
          input_language: ['en-IN'],
          output_template: [
            { template_id: 'clinical_notes_template', codification_needed: false },
            { template_id: 'eka_emr_template', codification_needed: true },
          ],
        },
      },
    );
    expect(started.transactionId).toBe('reference-visit-1');
    const again = await client
      .start(started.grant!, started.files, {
        transaction_id: 'reference-visit-1',
        output_format: {
          input_language: ['en-IN'],
          output_template: [{ template_id: 'transcript_template', codification_needed: false }],
        },
      })
      .catch((error: unknown) => error);
    expect((again as TranscriptionError).code).toBe('ERR_TRANSCRIPTION_ALREADY_STARTED');

    const event = await notification;
    expect(event).toMatchObject({ event: 'v2rx.completed', transactionId: 'reference-visit-1' });
    const result = await client.waitForResult(event.transactionId, {
      intervalMs: 10,
      expectedTemplates: ['clinical_notes_template', 'eka_emr_template'],
    });
    expect(result.state).toBe('done');
    expect(result.decoded.complete).toBe(true);
    expect(result.decoded.documents.map((document) => document.templateId)).toEqual([
      'clinical_notes_template',
      'eka_emr_template',
    ]);
    expect(result.decoded.documents.every((document) => document.text !== undefined)).toBe(true);
    expect(events).toHaveLength(1);
    const unknown = await client.getResult('never-started').catch((error: unknown) => error);
    expect((unknown as TranscriptionError).code).toBe('ERR_TRANSACTION_NOT_FOUND');
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

it('works through a fetch wrapped by the JWE client: API bodies travel as envelopes, storage stays plain', async () => {
  const wire: { path: string; encrypted: boolean; envelope: boolean }[] = [];
  const recording: FetchLike = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const raw = init?.body;
    const body =
      typeof raw === 'string'
        ? raw
        : raw instanceof Uint8Array || raw instanceof ArrayBuffer
          ? new TextDecoder().decode(raw)
          : '';
    wire.push({
      path: url.pathname,
      encrypted: new Headers(init?.headers).get('x-encryption') === 'JWE',
      envelope: body.includes('"ciphertext"'),
    });
    return fetch(input, init);
  };
  const jweFetch = createJweFetch({ key: 'ref-shared-key-1', kid: 'k1' }, recording as typeof fetch);
  const client = createServiceClient({
    baseUrl: service.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    fetch: jweFetch as FetchLike,
  });
  const started = await client.transcribe([{ name: 'jwe.wav', data: new TextEncoder().encode('RIFF jwe') }], {
    transaction_id: 'reference-visit-jwe',
    output_format: {
      input_language: ['hi'],
      output_template: [{ template_id: 'transcript_template', codification_needed: false }],
    },
  });
  const result = await client.waitForResult(started.transactionId, { intervalMs: 10 });
  expect(result.decoded.documents.map((document) => document.status)).toEqual(['success']);
  const login = wire.find((entry) => entry.path === '/connect-auth/v1/account/login');
  const start = wire.find((entry) => entry.path.startsWith('/voice/api/v2/transaction/init/'));
  expect(login).toMatchObject({ encrypted: true, envelope: true });
  expect(start).toMatchObject({ encrypted: true, envelope: true });
  // The storage leg went through the global fetch, not the JWE one.
  expect(wire.some((entry) => entry.path.includes('storage'))).toBe(false);
});

it('sends the auth header form when asked, on refresh too, and passes additional_data and Odia to the start call', async () => {
  const sent: { path: string; authorization: string | null; auth: string | null }[] = [];
  const recording: FetchLike = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({
      path: new URL(String(input instanceof Request ? input.url : input)).pathname,
      authorization: headers.get('authorization'),
      auth: headers.get('auth'),
    });
    return fetch(input, init);
  };
  const client = createServiceClient({
    baseUrl: service.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    fetch: recording,
    tokenHeader: 'auth',
  });
  const params = {
    transaction_id: 'reference-visit-auth',
    output_format: {
      input_language: ['or' as const],
      output_template: [{ template_id: 'eka_emr_template' as const, codification_needed: false }],
    },
  };
  const grant = await client.requestUploadGrant('reference-visit-auth');
  // Every access token the service issued ends: the next call is refused, refreshed, replayed.
  service.workflow.tokens.revokeAccessTokens();
  const finalGrant = await client.uploadFile(grant, {
    name: 'odia.wav',
    data: new TextEncoder().encode('RIFF or'),
  });
  await client.start(finalGrant, ['odia.wav'], params, { additionalData: { visit: 'v-42', clinic: 'c-7' } });
  const result = await client.waitForResult('reference-visit-auth', { intervalMs: 10 });
  expect(result.result.data?.additional_data).toEqual({ visit: 'v-42', clinic: 'c-7' });
  const emr = JSON.parse(result.decoded.documents[0]!.text!);
  expect(emr.languages).toEqual(['or']);

  expect(sent.some((call) => call.authorization !== null)).toBe(false);
  const withToken = sent.filter((call) => call.path !== '/connect-auth/v1/account/login');
  expect(withToken.map((call) => call.path)).toContain('/connect-auth/v1/account/refresh-token');
  for (const call of withToken) expect(call.auth).toEqual(expect.any(String));
  expect(client.session.stats.refreshes).toBe(1);
});

it('refuses a tokenHeader it does not know, naming the accepted ones', () => {
  expect(() =>
    createServiceClient({
      baseUrl: service.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      tokenHeader: 'x-token' as never,
    }),
  ).toThrow(/tokenHeader must be "authorization" or "auth"/);
});
