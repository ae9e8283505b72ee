// The transcription workflow on the documented wire, over real HTTP against the test service.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createServiceClient,
  type ServiceClient,
  type TranscribeProgress,
  TranscriptionError,
} from '@jwe-transport/service-client';
import { audioFileFromPath } from '@jwe-transport/service-client/node';
import type { TranscriptionParams } from '@jwe-transport/service-client/transcription';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET, startTestService, type TestService } from './support/service-server.js';

const PARAMS: TranscriptionParams = {
  transaction_id: 'visit-0001',
  action: 'scribe-v2',
  extra_data: { mode: 'consultation', model_type: 'pro' },
  output_format: {
    input_language: ['en-IN', 'hi'],
    output_template: [
      { template_id: 'clinical_notes_template', codification_needed: true },
      { template_id: 'eka_emr_template', codification_needed: false },
    ],
  },
};
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function failure(promise: Promise<unknown>): Promise<TranscriptionError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TranscriptionError);
  return error as TranscriptionError;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'service-client-wire-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createServiceClient() on the documented wire', () => {
  let service: TestService;
  let client: ServiceClient;
  beforeEach(async () => {
    service = await startTestService();
    client = createServiceClient({ baseUrl: service.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  });
  afterEach(async () => {
    await service.close();
  });

  it('grants, uploads every file with the granted fields first, starts with the mapped members, and decodes the result', async () => {
    const memory = new TextEncoder().encode('RIFF in memory');
    const onDisk = Buffer.from('RIFF on disk, streamed');
    const path = join(dir, 'follow-up.wav');
    await writeFile(path, onDisk);
    const started = await client.transcribe(
      [{ name: 'consultation.mp3', data: memory }, await audioFileFromPath(path)],
      PARAMS,
      { additionalData: { visit: 7 }, speciality: 'general' },
    );
    expect(started).toMatchObject({ transactionId: 'visit-0001', status: 'success', businessId: 'b-1' });
    const folder = started.grant!.folderPath;
    const stored = [...service.storage.files.values()];
    expect(
      stored.map(({ key, size, sha256: hash, contentType }) => ({ key, size, hash, contentType })),
    ).toEqual([
      {
        key: `${folder}consultation.mp3`,
        size: memory.length,
        hash: sha256(memory),
        contentType: 'audio/mpeg',
      },
      { key: `${folder}follow-up.wav`, size: onDisk.length, hash: sha256(onDisk), contentType: 'audio/wav' },
    ]);
    expect(stored[0]?.order).toEqual([...started.grant!.fields.map(([name]) => name), 'file']);
    expect(service.transactions.get('visit-0001')?.body).toEqual({
      mode: 'consultation',
      transfer: 'non-vaded',
      batch_s3_url: `${started.grant!.url}${folder}`,
      client_generated_files: ['consultation.mp3', 'follow-up.wav'],
      input_language: ['en-IN', 'hi'],
      output_format_template: [
        { template_id: 'clinical_notes_template', codification_needed: true },
        { template_id: 'eka_emr_template', codification_needed: false },
      ],
      model_type: 'pro',
      speciality: 'general',
      additional_data: { visit: 7 },
    });
    // The storage leg carries no bearer token and no Client-Id; every API call carries both.
    for (const entry of service.log) {
      if (entry.path === '/storage/') {
        expect(entry.authorization).toBeUndefined();
        expect(entry.clientId).toBeUndefined();
      } else {
        expect(entry.clientId, entry.path).toBe(CLIENT_ID);
        if (!entry.path.startsWith('/connect-auth/')) expect(entry.authorization).toMatch(/^Bearer at-/);
      }
    }
    const result = await client.waitForResult('visit-0001', { expectedTemplates: ['eka_emr_template'] });
    expect(result.state).toBe('done');
    expect(result.decoded.complete).toBe(true);
    expect(
      result.decoded.documents.map((document) => [document.templateId, document.format, document.status]),
    ).toEqual([
      ['clinical_notes_template', 'markdown', 'success'],
      ['eka_emr_template', 'json', 'success'],
    ]);
    expect(result.decoded.documents[1]?.json).toEqual({
      files: ['consultation.mp3', 'follow-up.wav'],
      language: ['en-IN', 'hi'],
    });
    expect(result.result.data?.additional_data).toEqual({ visit: 7 });
  });

  it('validates the spec parameters and file names before any call', async () => {
    const error = await failure(
      client.transcribe(
        [
          { name: '../x.wav', data: new Uint8Array(1) },
          { name: 'b.wav', data: 'not bytes' as unknown as Uint8Array },
          { name: 'a.wav', data: new Uint8Array(1) },
          { name: 'a.wav', data: new Uint8Array(1) },
        ],
        {
          action: 'scribe-v1' as 'scribe-v2',
          extra_data: { mode: 'chat' as 'dictation', model_type: 'max' as 'pro' },
          output_format: {
            input_language: ['xx' as 'hi'],
            output_template: [{ template_id: 'nope' as 'transcript_template', codification_needed: false }],
          },
        },
      ),
    );
    expect(error.code).toBe('ERR_TRANSCRIPTION_PARAMS_INVALID');
    expect(error.issues).toHaveLength(8);
    expect(error.message).toContain('files[1]: data must be a Blob');
    expect(error.message).toContain('extra_data.model_type');
    expect(error.message).toContain('"a.wav" is used twice');
    expect(service.log).toEqual([]);
  });

  it('409 from start is ERR_TRANSCRIPTION_ALREADY_STARTED', async () => {
    const file = { name: 'a.wav', data: new Uint8Array([1, 2, 3]) };
    await client.transcribe([file], PARAMS);
    const grant = await client.requestUploadGrant('visit-0001');
    await client.uploadFile(grant, file);
    const error = await failure(client.start(grant, ['a.wav'], PARAMS));
    expect(error).toMatchObject({ code: 'ERR_TRANSCRIPTION_ALREADY_STARTED', status: 409 });
  });

  it('polls while 202, then answers 206 as partial with per-template status, errors and warnings', async () => {
    service.pollsBeforeDone = 3;
    service.outcomeFor = () => ({
      status: 206,
      output: [
        {
          template_id: 'clinical_notes_template',
          type: 'markdown',
          status: 'success',
          value: Buffer.from('# ok').toString('base64'),
          errors: [],
          warnings: ['short audio'],
        },
        {
          template_id: 'eka_emr_template',
          type: 'json',
          status: 'failure',
          value: '',
          errors: [{ code: 'no_speech' }],
          warnings: [],
        },
      ],
    });
    await client.transcribe([{ name: 'a.wav', data: new Uint8Array([1]) }], PARAMS);
    const first = await client.getResult('visit-0001');
    expect(first).toMatchObject({ state: 'processing', httpStatus: 202 });
    const polls: TranscribeProgress[] = [];
    const result = await client.waitForResult('visit-0001', {
      intervalMs: 1,
      maxIntervalMs: 2,
      onProgress: (event) => polls.push(event),
    });
    expect(polls).toEqual([
      { step: 'status', transactionId: 'visit-0001', httpStatus: 202, poll: 1 },
      { step: 'status', transactionId: 'visit-0001', httpStatus: 202, poll: 2 },
      { step: 'status', transactionId: 'visit-0001', httpStatus: 206, poll: 3 },
    ]);
    // One status call by transcribe() (a caller-chosen id may be a retry: was it started?), then 1 + 3.
    expect(service.counts.polls).toBe(5);
    expect(result).toMatchObject({ state: 'partial', httpStatus: 206 });
    expect(result.decoded.status).toBe('partial_success');
    expect(
      result.decoded.documents.map((document) => [
        document.status,
        document.text,
        document.errors,
        document.warnings,
      ]),
    ).toEqual([
      ['success', '# ok', [], ['short audio']],
      ['failure', undefined, [{ code: 'no_speech' }], []],
    ]);
  });

  it('400 is ERR_TRANSACTION_NOT_FOUND; 500 is ERR_TRANSCRIPTION_FAILED with the decoded errors', async () => {
    const unknown = await failure(client.getResult('nobody'));
    expect(unknown).toMatchObject({
      code: 'ERR_TRANSACTION_NOT_FOUND',
      status: 400,
      serviceCode: 'transaction_not_found',
    });
    service.outcomeFor = () => ({
      status: 500,
      output: [
        {
          template_id: 'transcript_template',
          status: 'failure',
          value: '',
          errors: ['engine down'],
          warnings: [],
        },
      ],
    });
    await client.transcribe([{ name: 'a.wav', data: new Uint8Array([1]) }], PARAMS);
    const failed = await failure(client.waitForResult('visit-0001'));
    expect(failed).toMatchObject({ code: 'ERR_TRANSCRIPTION_FAILED', status: 500 });
    expect(failed.result?.documents[0]?.errors).toEqual(['engine down']);
  });

  it('the wait is abortable: the promise rejects with the reason and no timer is left', async () => {
    service.pollsBeforeDone = 1_000;
    await client.transcribe([{ name: 'a.wav', data: new Uint8Array([1]) }], PARAMS);
    const controller = new AbortController();
    const waiting = client.waitForResult('visit-0001', { intervalMs: 60_000, signal: controller.signal });
    const polled = await new Promise<number>((resolve) => {
      const check = () => (service.counts.polls > 0 ? resolve(service.counts.polls) : setImmediate(check));
      check();
    });
    controller.abort(new Error('user stopped'));
    await expect(waiting).rejects.toThrow('user stopped');
    expect(polled).toBe(1);
  });

  it('a fresh grant that names a new folder: the files stored under the old one go again under the new one', async () => {
    const first = new TextEncoder().encode('RIFF first');
    const second = new TextEncoder().encode('RIFF second');
    const events: TranscribeProgress[] = [];
    const started = await client.transcribe(
      [
        { name: 'first.wav', data: first },
        { name: 'second.wav', data: second },
      ],
      PARAMS,
      {
        retry: { baseDelayMs: 1 },
        onProgress: (event) => {
          events.push(event);
          // The first file is in; the policy expires before the second arrives.
          if (event.step === 'file' && event.file === 'first.wav' && event.done)
            service.storage.clock.offsetMs = 2 * 3600 * 1000;
          if (event.step === 'grant' && event.reason === 'policy-refused') service.storage.clock.offsetMs = 0;
        },
      },
    );
    expect(service.counts.grants).toBe(2);
    const folder = started.grant!.folderPath;
    const keys = [...service.storage.files.values()].map((file) => file.key);
    expect(keys.filter((key) => key.startsWith(folder)).sort()).toEqual([
      `${folder}first.wav`,
      `${folder}second.wav`,
    ]);
    expect(service.transactions.get('visit-0001')?.body.batch_s3_url).toBe(`${started.grant!.url}${folder}`);
    expect(
      events
        .filter((event) => event.step === 'file' && event.done && !event.skipped)
        .map((event) => (event as { file: string }).file),
    ).toEqual(['first.wav', 'second.wav', 'first.wav']);
  });

  it('an expired grant is a 403 ERR_UPLOAD_GRANT_EXPIRED that says to ask for a new grant', async () => {
    const grant = await client.requestUploadGrant('visit-0002');
    service.storage.clock.offsetMs = 2 * 3600 * 1000;
    const error = await failure(client.uploadFile(grant, { name: 'late.wav', data: new Uint8Array(64) }));
    expect(error).toMatchObject({
      code: 'ERR_UPLOAD_GRANT_EXPIRED',
      status: 403,
      serviceCode: 'AccessDenied',
    });
    expect(error.message).toContain('Ask for a new grant');
    expect(service.storage.files.size).toBe(0);
  });

  it('files over 5 GiB are refused before any byte is sent', async () => {
    const path = join(dir, 'huge.wav');
    const { open } = await import('node:fs/promises');
    const handle = await open(path, 'w');
    await handle.truncate(5 * 1024 ** 3 + 1);
    await handle.close();
    const error = await failure(audioFileFromPath(path));
    expect(error.code).toBe('ERR_UPLOAD_TOO_LARGE');
    const missing = await failure(audioFileFromPath(join(dir, 'absent.wav')));
    expect(missing.code).toBe('ERR_UPLOAD_FILE_UNREADABLE');
  });
});
