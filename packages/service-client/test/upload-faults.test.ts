// Uploads that survive a bad network: the service client against the real reference service
// (packages/reference-service) through a fault proxy on 127.0.0.1. Every case must end with the
// transaction started exactly once and every file stored once, byte for byte.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, startService } from '@jwe-transport/reference-service';
import {
  type AudioFile,
  createServiceClient,
  type TranscribeProgress,
  type TranscriptionError,
} from '@jwe-transport/service-client';
import { audioFileFromPath } from '@jwe-transport/service-client/node';
import type { TranscriptionParams } from '@jwe-transport/service-client/transcription';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pause } from '../src/http/pause.js';
import { type Fault, type ProxiedRequest, startFaultProxy } from './support/fault-proxy.js';

const CLIENT_ID = 'fault-client';
const CLIENT_SECRET = 'fault-client-secret-01';
const STORAGE = '/storage/ekascribe-audio/';
const MIB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let service: RunningService;
let dir: string;
const clock = { now: Date.now() };
const serviceLog: string[] = [];
let diskBytes: Buffer;
let memoryBytes: Uint8Array;
let diskPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'service-client-faults-'));
  diskBytes = randomBytes(3 * MIB);
  memoryBytes = new Uint8Array(randomBytes(64 * 1024));
  diskPath = join(dir, 'consultation.wav');
  await writeFile(diskPath, diskBytes);
  service = await startService(
    {
      keys: { k1: 'fault-shared-k01' },
      tokens: [],
      port: 0,
      docsDir: join(dir, 'docs'),
      uploadLimit: '5mb',
      generated: {},
      workflow: { clients: { [CLIENT_ID]: CLIENT_SECRET }, processingMs: 20, now: () => clock.now },
    },
    { log: (line) => serviceLog.push(line) },
  );
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

const params = (transactionId: string): TranscriptionParams => ({
  transaction_id: transactionId,
  output_format: {
    input_language: ['en-IN'],
    output_template: [{ template_id: 'transcript_template', codification_needed: false }],
  },
});

async function files(): Promise<AudioFile[]> {
  return [await audioFileFromPath(diskPath), { name: 'follow-up.m4a', data: memoryBytes }];
}

const isStorage = (request: ProxiedRequest) => request.method === 'POST' && request.path === STORAGE;
const isStart = (request: ProxiedRequest) =>
  request.method === 'POST' && request.path.startsWith('/voice/api/v2/transaction/init/');

/** The service's own log lines about one transaction's start and the storage, from `from` on. */
function serviceLines(from: number, transactionId: string): string[] {
  return serviceLog
    .slice(from)
    .filter((line) => line.includes(STORAGE) || line.includes(`/init/${transactionId} `));
}

/** Started once, each file stored once, and the stored bytes are the source's bytes. */
async function expectStartedOnceAndStoredOnce(from: number, transactionId: string, names: string[]) {
  const lines = serviceLines(from, transactionId);
  expect(
    lines.filter((line) => line === `POST /voice/api/v2/transaction/init/${transactionId} 201 plain`),
  ).toHaveLength(1);
  expect(lines.filter((line) => line === `POST ${STORAGE} 204 plain`)).toHaveLength(names.length);
  const transaction = service.workflow.transactions.get(transactionId)!;
  expect(transaction.state).not.toBe('granted');
  expect([...transaction.files.keys()].sort()).toEqual([...names].sort());
  const folder = join(dir, 'docs', 'audio', transactionId);
  expect((await readdir(folder)).sort()).toEqual([...names].sort());
  const sources: Record<string, Uint8Array> = { 'consultation.wav': diskBytes, 'follow-up.m4a': memoryBytes };
  for (const name of names) {
    expect(sha256(await readFile(join(folder, name))), name).toBe(sha256(sources[name]!));
    expect(transaction.files.get(name)?.sha256, name).toBe(sha256(sources[name]!));
  }
}

async function run(transactionId: string, decide: (request: ProxiedRequest) => Fault | undefined) {
  const proxy = await startFaultProxy(service.url, decide);
  const from = serviceLog.length;
  const events: TranscribeProgress[] = [];
  try {
    const client = createServiceClient({
      baseUrl: proxy.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      retry: { baseDelayMs: 5, maxDelayMs: 2000 },
    });
    const started = await client.transcribe(await files(), params(transactionId), {
      onProgress: (event) => events.push(event),
    });
    return { started, events, proxyLog: proxy.log, from, client };
  } finally {
    await proxy.close();
  }
}

const fileEvents = (events: TranscribeProgress[], name: string) =>
  events.filter(
    (event): event is Extract<TranscribeProgress, { step: 'file' }> =>
      event.step === 'file' && event.file === name,
  );
const retries = (events: TranscribeProgress[]) =>
  events.filter((event): event is Extract<TranscribeProgress, { step: 'retry' }> => event.step === 'retry');

describe('uploads through injected faults, against the reference service', () => {
  it('a connection reset mid-body: the file is sent again from disk and stored once, whole', async () => {
    const { started, events, proxyLog, from } = await run('fault-reset', (request) =>
      isStorage(request) && request.index === 0 ? { kind: 'reset-after-bytes', bytes: MIB } : undefined,
    );
    expect(started.alreadyStarted).toBe(false);
    expect(proxyLog.filter((entry) => entry.path === STORAGE).map((entry) => entry.outcome)).toEqual([
      'reset',
      204,
      204,
    ]);
    expect(retries(events)).toEqual([
      expect.objectContaining({ of: 'file', file: 'consultation.wav', attempt: 1, reason: 'network error' }),
    ]);
    // Progress of the first attempt got past the reset point before it failed; the second ran to the end.
    const disk = fileEvents(events, 'consultation.wav');
    expect(disk.filter((event) => event.attempt === 1).every((event) => !event.done)).toBe(true);
    expect(disk.at(-1)).toMatchObject({ attempt: 2, bytesSent: 3 * MIB, totalBytes: 3 * MIB, done: true });
    await expectStartedOnceAndStoredOnce(from, 'fault-reset', ['consultation.wav', 'follow-up.m4a']);
    // The service saw the cut-off upload end without an answer, and kept nothing of it.
    expect(serviceLines(from, 'fault-reset')).toContain(`POST ${STORAGE} aborted before an answer`);
    if (process.env.UPLOAD_TRACE_FILE) {
      const trace = {
        progress: events.filter(
          (event) => event.step !== 'file' || event.done || event.bytesSent % MIB === 0,
        ),
        serviceLog: serviceLog.slice(from),
        proxy: proxyLog,
      };
      await writeFile(process.env.UPLOAD_TRACE_FILE, `${JSON.stringify(trace, null, 1)}\n`);
    }
  });

  it('503 with Retry-After, then 204: the wait honours Retry-After and the file is stored once', async () => {
    const { events, proxyLog, from } = await run('fault-503', (request) =>
      isStorage(request) && request.index === 1
        ? { kind: 'respond', status: 503, headers: { 'retry-after': '1' }, body: 'SlowDown' }
        : undefined,
    );
    expect(proxyLog.filter((entry) => entry.path === STORAGE).map((entry) => entry.outcome)).toEqual([
      204, 503, 204,
    ]);
    expect(retries(events)).toEqual([
      expect.objectContaining({
        of: 'file',
        file: 'follow-up.m4a',
        delayMs: 1000,
        reason: 'storage answered 503',
      }),
    ]);
    await expectStartedOnceAndStoredOnce(from, 'fault-503', ['consultation.wav', 'follow-up.m4a']);
  });

  it('an expired policy (403): a fresh grant, then the upload, with an expired access token refreshed on the way', async () => {
    const { events, proxyLog, from } = await run('fault-expired', (request) => {
      // Two hours pass before the first file arrives: its policy (and the access token) expired.
      if (isStorage(request) && request.index === 0) clock.now += 2 * 3600 * 1000;
      return undefined;
    });
    // The storage reads a refused body of this size to its end before it answers, so the client
    // reads the 403 (not a reset) on the first attempt.
    expect(proxyLog.filter((entry) => entry.path === STORAGE).map((entry) => entry.outcome)).toEqual([
      403, 204, 204,
    ]);
    expect(retries(events).map((event) => [event.attempt, event.reason])).toEqual([
      [1, 'storage refused the policy (403 AccessDenied)'],
    ]);
    expect(
      events.filter((event) => event.step === 'grant').map((event) => (event as { reason: string }).reason),
    ).toEqual(['first', 'policy-refused']);
    const refreshes = proxyLog.filter((entry) => entry.path === '/connect-auth/v1/account/refresh-token');
    expect(refreshes.map((entry) => entry.outcome)).toEqual([200]);
    await expectStartedOnceAndStoredOnce(from, 'fault-expired', ['consultation.wav', 'follow-up.m4a']);
  });

  it('a 403 after the resets have spent every attempt but one still gets its fresh grant and upload', async () => {
    // What a busy machine shows against a storage that refuses early and closes: the client sees
    // resets until one attempt reads the 403. Sending again with a fresh grant is a new request,
    // not a repeat of the refused one, so it spends no attempt.
    const { events, proxyLog, from } = await run('fault-late-403', (request) => {
      if (!isStorage(request)) return undefined;
      if (request.index < 4) return { kind: 'reset-after-bytes', bytes: MIB };
      if (request.index === 4) {
        return {
          kind: 'respond',
          status: 403,
          headers: { 'content-type': 'application/xml' },
          body: '<Error><Code>AccessDenied</Code><Message>Policy expired</Message></Error>',
        };
      }
      return undefined;
    });
    expect(proxyLog.filter((entry) => entry.path === STORAGE).map((entry) => entry.outcome)).toEqual([
      'reset',
      'reset',
      'reset',
      'reset',
      403,
      204,
      204,
    ]);
    expect(retries(events).map((event) => [event.attempt, event.reason])).toEqual([
      [1, 'network error'],
      [2, 'network error'],
      [3, 'network error'],
      [4, 'network error'],
      [5, 'storage refused the policy (403 AccessDenied)'],
    ]);
    expect(
      events.filter((event) => event.step === 'grant').map((event) => (event as { reason: string }).reason),
    ).toEqual(['first', 'policy-refused']);
    const disk = fileEvents(events, 'consultation.wav');
    expect(disk.at(-1)).toMatchObject({ attempt: 6, bytesSent: 3 * MIB, done: true });
    await expectStartedOnceAndStoredOnce(from, 'fault-late-403', ['consultation.wav', 'follow-up.m4a']);
  });

  it('a start whose answer is lost: the retry gets 409, which counts as started', async () => {
    const { started, events, proxyLog, from } = await run('fault-409', (request) =>
      isStart(request) && request.index === 0 ? { kind: 'drop-response' } : undefined,
    );
    expect(proxyLog.filter((entry) => entry.path.includes('/init/')).map((entry) => entry.outcome)).toEqual([
      'dropped',
      409,
    ]);
    expect(started).toMatchObject({ transactionId: 'fault-409', alreadyStarted: true });
    expect(events.filter((event) => event.step === 'start')).toEqual([
      { step: 'start', transactionId: 'fault-409', attempt: 2, alreadyStarted: true },
    ]);
    await expectStartedOnceAndStoredOnce(from, 'fault-409', ['consultation.wav', 'follow-up.m4a']);
  });
});

describe('a retried transcribe() does only what is left', () => {
  it('after a failed call, sends only the files not stored yet; after start, sends nothing', async () => {
    let failing = true;
    let statusFaults = 0;
    const proxy = await startFaultProxy(service.url, (request) => {
      if (failing && isStorage(request) && request.index >= 1)
        return { kind: 'respond', status: 500, body: 'InternalError' };
      if (request.path.startsWith('/voice/api/v3/status/') && statusFaults > 0) {
        statusFaults--;
        return { kind: 'respond', status: 503, body: 'unavailable' };
      }
      return undefined;
    });
    const from = serviceLog.length;
    try {
      const client = createServiceClient({
        baseUrl: proxy.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        retry: { attempts: 2, baseDelayMs: 1 },
      });
      const first = await client
        .transcribe(await files(), params('retry-call'))
        .catch((error: unknown) => error);
      expect((first as TranscriptionError).code).toBe('ERR_UPLOAD_FAILED');
      expect((first as TranscriptionError).status).toBe(500);
      failing = false;
      const events: TranscribeProgress[] = [];
      const second = await client.transcribe(await files(), params('retry-call'), {
        onProgress: (event) => events.push(event),
      });
      expect(second.alreadyStarted).toBe(false);
      expect(events.filter((event) => event.step === 'file' && event.done)).toEqual([
        expect.objectContaining({ file: 'consultation.wav', skipped: true }),
        expect.objectContaining({ file: 'follow-up.m4a', attempt: 1 }),
      ]);
      await expectStartedOnceAndStoredOnce(from, 'retry-call', ['consultation.wav', 'follow-up.m4a']);

      const requestsBefore = proxy.log.length;
      const third = await client.transcribe(await files(), params('retry-call'));
      expect(third).toMatchObject({ alreadyStarted: true, transactionId: 'retry-call' });
      expect(proxy.log.length).toBe(requestsBefore);

      // Another process (a new client) retrying the same transaction asks the status endpoint
      // (again after a 503) and uploads nothing into the started transaction.
      statusFaults = 1;
      const other = createServiceClient({
        baseUrl: proxy.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        retry: { baseDelayMs: 1 },
      });
      const fourth = await other.transcribe(await files(), params('retry-call'));
      expect(fourth).toMatchObject({ alreadyStarted: true, grant: undefined });
      const seen = proxy.log
        .slice(requestsBefore)
        .map((entry) => `${entry.method} ${entry.path} ${entry.outcome}`);
      expect(seen).toEqual([
        'POST /connect-auth/v1/account/login 200',
        'GET /voice/api/v3/status/retry-call 503',
        expect.stringMatching(/^GET \/voice\/api\/v3\/status\/retry-call 20[026]$/),
      ]);
      await expectStartedOnceAndStoredOnce(from, 'retry-call', ['consultation.wav', 'follow-up.m4a']);
    } finally {
      await proxy.close();
    }
  });
});

describe('two calls for one transaction at once', () => {
  it('run one after the other: one uploads and starts, the other finds it started', async () => {
    const from = serviceLog.length;
    const client = createServiceClient({
      baseUrl: service.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    const [one, two] = await Promise.all([
      client.transcribe(await files(), params('concurrent-call')),
      client.transcribe(await files(), params('concurrent-call')),
    ]);
    expect([one.alreadyStarted, two.alreadyStarted]).toEqual([false, true]);
    await expectStartedOnceAndStoredOnce(from, 'concurrent-call', ['consultation.wav', 'follow-up.m4a']);
  });
});

describe('cancelling and what cannot be retried', () => {
  it('an abort during a backoff wait rejects with the reason, and nothing is sent after it', async () => {
    const proxy = await startFaultProxy(service.url, (request) =>
      isStorage(request) ? { kind: 'respond', status: 429, headers: { 'retry-after': '30' } } : undefined,
    );
    try {
      const client = createServiceClient({
        baseUrl: proxy.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
      });
      const controller = new AbortController();
      const delays: number[] = [];
      const upload = client.transcribe(await files(), params('abort-wait'), {
        signal: controller.signal,
        onProgress: (event) => {
          if (event.step !== 'retry') return;
          delays.push(event.delayMs);
          // The 30 s backoff (Retry-After) starts right after this event.
          setImmediate(() => controller.abort(new Error('user cancelled')));
        },
      });
      await expect(upload).rejects.toThrow('user cancelled');
      expect(delays).toEqual([30_000]);
      expect(proxy.log.filter((entry) => entry.path === STORAGE)).toHaveLength(1);
      expect(service.workflow.transactions.get('abort-wait')?.state).toBe('granted');
    } finally {
      await proxy.close();
    }
  });

  it('an aborted backoff wait clears its timer at once', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const controller = new AbortController();
    // Synchronous from here to the abort: no other code can add or remove a timer in between.
    const before = timers();
    const waiting = pause(30_000, controller.signal);
    const during = timers();
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(during).toBe(before + 1);
    expect(timers()).toBe(before);
    // An already aborted signal starts no timer at all.
    await expect(pause(30_000, controller.signal)).rejects.toThrow('stop');
    expect(timers()).toBe(before);
  });

  it('a one-shot stream cannot be sent twice: ERR_UPLOAD_NOT_REPEATABLE, not a silent partial upload', async () => {
    const proxy = await startFaultProxy(service.url, (request) =>
      isStorage(request) && request.index === 0 ? { kind: 'reset-after-bytes', bytes: 64 * 1024 } : undefined,
    );
    try {
      const client = createServiceClient({
        baseUrl: proxy.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        retry: { baseDelayMs: 1 },
      });
      const bytes = new Uint8Array(randomBytes(256 * 1024));
      const once = new Blob([bytes]).stream();
      const oneShot: AudioFile = { name: 'once.wav', data: { size: bytes.length, stream: () => once } };
      const error = (await client
        .transcribe([oneShot], params('one-shot'))
        .catch((caught: unknown) => caught)) as TranscriptionError;
      expect(error.code).toBe('ERR_UPLOAD_NOT_REPEATABLE');
      expect(error.message).toMatch(/one-shot stream/);
      expect(service.workflow.transactions.get('one-shot')?.files.size).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
