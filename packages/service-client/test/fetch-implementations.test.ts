// The client takes any fetch-compatible function: here a ky instance and a wrapping fetch.
import { createServiceClient, type FetchLike, type TranscriptionError } from '@jwe-transport/service-client';
import ky from 'ky';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET, startTestService, type TestService } from './support/service-server.js';

const PARAMS = {
  output_format: {
    input_language: ['en-US' as const],
    output_template: [{ template_id: 'transcript_template' as const, codification_needed: false }],
  },
};

let service: TestService;
beforeEach(async () => {
  service = await startTestService();
});
afterEach(async () => {
  await service.close();
});

it('runs the workflow with a ky instance as fetch, non-2xx answers included', async () => {
  const api = ky.create({ retry: 0, headers: { 'x-app': 'ky-caller' } });
  const client = createServiceClient({
    baseUrl: service.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    fetch: api as unknown as FetchLike,
  });
  const started = await client.transcribe([{ name: 'a.ogg', data: new Uint8Array([1, 2]) }], PARAMS);
  expect(started.transactionId).toMatch(/^[0-9a-f-]{36}$/);
  const result = await client.waitForResult(started.transactionId);
  expect(result.decoded.documents[0]?.text).toBe('# transcript_template\nmode dictation');
  // ky would throw on 400; the client still reads it as the documented error.
  const unknown = await client.getResult('missing').catch((error: unknown) => error);
  expect((unknown as TranscriptionError).code).toBe('ERR_TRANSACTION_NOT_FOUND');
  expect(service.storage.files.size).toBe(1);
});

it('renews the token once after a 401 and replays the call, through any wrapping fetch', async () => {
  const seen: string[] = [];
  const recording: FetchLike = (input, init) => {
    seen.push(
      `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`,
    );
    return fetch(input, init);
  };
  const client = createServiceClient({
    baseUrl: service.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    fetch: recording,
  });
  await client.requestUploadGrant('t-1');
  const first = client.session.tokens?.access_token;
  service.revokeAccessTokens();
  await client.requestUploadGrant('t-2');
  expect(client.session.tokens?.access_token).not.toBe(first);
  expect(service.counts).toMatchObject({ logins: 1, refreshes: 1, grants: 2 });
  expect(seen).toEqual([
    'POST /connect-auth/v1/account/login',
    'POST /v1/file-upload',
    'POST /v1/file-upload',
    'POST /connect-auth/v1/account/refresh-token',
    'POST /v1/file-upload',
  ]);
});
