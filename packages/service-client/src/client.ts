import { withBearer } from './auth/bearer-fetch.js';
import { clientCredentialsLogin, refreshTokenExchange } from './auth/endpoints.js';
import { createTokenSession, type TokenSession } from './auth/session.js';
import { checkTokenHeader, type TokenHeader } from './auth/token-header.js';
import type { ServiceContext } from './http/call.js';
import { defaultFetch, type FetchLike, parseBaseUrl } from './http/fetch-like.js';
import type { KeyValueStore } from './store/types.js';
import { checkTranscription } from './transcription/check.js';
import type { DecodeOptions } from './transcription/decode.js';
import { isTranscriptionError, TranscriptionError } from './transcription/errors.js';
import { requestUploadGrant, type UploadGrant } from './transcription/grant.js';
import type { TranscriptionParams } from './transcription/params.js';
import { linkedController, type ProgressListener, progressEmitter } from './transcription/progress.js';
import {
  type Attempt,
  isTransientStatus,
  type RetryOptions,
  resolveRetry,
  withRetries,
} from './transcription/retry.js';
import { postStart, type StartedTranscription, type StartOptions, startBody } from './transcription/start.js';
import { fetchResultState, type ResultState } from './transcription/status.js';
import { type AudioFile, uploadWithRetries } from './transcription/storage-upload.js';
import {
  createWebhookSubscription,
  type WebhookSubscription,
  type WebhookSubscriptionRequest,
} from './transcription/subscription.js';
import { type FinishedResult, type WaitOptions, waitForResultState } from './transcription/wait.js';

export interface ServiceClientOptions {
  /** The service's base address, e.g. `https://api.example.com`. */
  baseUrl: string | URL;
  /**
   * Client credentials; the client logs in and refreshes with them. Not needed with `session`.
   * The client id is also sent as the `Client-Id` header on refresh and on every API call (never
   * on the storage POST), as the service's own clients do.
   */
  clientId?: string;
  clientSecret?: string;
  /** A session of your own (e.g. one shared with other code); give `clientId` too for the header. */
  session?: TokenSession;
  /**
   * The fetch for API calls: the global fetch (default), undici's, one wrapped by `createJweFetch()`
   * of `@jwe-transport/ky-plugin`, or a ky instance without `prefixUrl`.
   */
  fetch?: FetchLike;
  /** The fetch for the storage leg (never JWE). Default: the global fetch. */
  storageFetch?: FetchLike;
  /**
   * Share the token pair with other processes through this store (e.g. `redisStore()`), so that
   * N processes behind one client id refresh once.
   */
  store?: KeyValueStore;
  /** Default retries of every step (grant, each file, start); each call may override them. */
  retry?: RetryOptions;
  /**
   * How the access token travels on refresh and on every API call: `'authorization'` (default)
   * sends `Authorization: Bearer <token>`; `'auth'` sends `auth: <token>`, the form the service's
   * API reference allows beside it and its JavaScript SDK uses.
   */
  tokenHeader?: TokenHeader;
}

export interface TranscribeOptions extends StartOptions {}

/** What `transcribe()` did: the grant used, the files uploaded and the start answer. */
export interface TranscriptionStarted extends StartedTranscription {
  /**
   * The grant used. Undefined only when a retried `transcribe()` learned from the status endpoint
   * that the transaction had been started already, so it asked for no grant.
   */
  grant: UploadGrant | undefined;
  files: string[];
}

/** Options of the single steps. */
export interface StepOptions {
  signal?: AbortSignal;
  retry?: RetryOptions;
  onProgress?: ProgressListener;
}

/** The transcription workflow on the documented wire, with login and refresh built in. */
export interface ServiceClient {
  readonly session: TokenSession;
  /**
   * The whole upload: checks `params` (spec 2.7) and the files first, then asks for a grant,
   * uploads each file to the storage, and starts the transaction. Each step is retried on passing
   * failures; an expired policy gets a fresh grant. Called again with the same `transaction_id`
   * (after a failure, or in a new process), it does only what is left: files this client already
   * stored are not sent again, and a transaction that has started (this client remembers it, or
   * the status endpoint says so) is answered with `alreadyStarted: true` and no upload at all.
   */
  transcribe(
    files: readonly AudioFile[],
    params: TranscriptionParams,
    options?: TranscribeOptions,
  ): Promise<TranscriptionStarted>;
  /** Step 1: a presigned-POST grant for `transactionId`. */
  requestUploadGrant(transactionId: string, options?: StepOptions): Promise<UploadGrant>;
  /**
   * Step 2: one file to the storage, retried; a 403 asks for a fresh grant of the same
   * transaction. Answers the grant finally used: start with it, and when its `folderPath` differs
   * from the one given, upload the earlier files again under it (`transcribe()` does this itself).
   */
  uploadFile(grant: UploadGrant, file: AudioFile, options?: StepOptions): Promise<UploadGrant>;
  /** Step 3: starts the transaction on the uploaded files. */
  start(
    grant: UploadGrant,
    fileNames: readonly string[],
    params: TranscriptionParams,
    options?: StartOptions,
  ): Promise<StartedTranscription>;
  /** Step 4, once. */
  getResult(transactionId: string, options?: DecodeOptions & { signal?: AbortSignal }): Promise<ResultState>;
  /** Step 4 until done, with backoff. */
  waitForResult(transactionId: string, options?: WaitOptions): Promise<FinishedResult>;
  /** Spec 4.4: subscribes a webhook receiver (once). */
  subscribeWebhook(request: WebhookSubscriptionRequest): Promise<WebhookSubscription>;
}

function sessionFor(options: ServiceClientOptions, fetchImpl: FetchLike): TokenSession {
  if (options.session) return options.session;
  const { clientId, clientSecret, baseUrl } = options;
  if (
    typeof clientId !== 'string' ||
    clientId === '' ||
    typeof clientSecret !== 'string' ||
    clientSecret === ''
  ) {
    throw new TypeError('createServiceClient(): pass clientId and clientSecret, or a session.');
  }
  return createTokenSession({
    login: clientCredentialsLogin({ baseUrl, clientId, clientSecret, fetch: fetchImpl }),
    refresh: refreshTokenExchange({
      baseUrl,
      fetch: fetchImpl,
      clientId,
      tokenHeader: checkTokenHeader(options.tokenHeader, 'createServiceClient()'),
    }),
    ...(options.store ? { store: options.store, storeKey: `tokens:${clientId}` } : {}),
  });
}

/** What this client did for one transaction, so that a retried `transcribe()` does only the rest. */
interface Journal {
  grant: UploadGrant | undefined;
  stored: Set<string>;
  started: StartedTranscription | undefined;
}

/** Fresh grants naming a new folder that one `transcribe()` follows before it gives up. */
const MAX_FOLDER_CHANGES = 3;

/** Transactions remembered per client; the oldest are forgotten past this (the status endpoint still knows). */
const JOURNAL_LIMIT = 1000;

/** Creates a {@link ServiceClient}. Nothing is sent until the first call. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = parseBaseUrl(options?.baseUrl, 'createServiceClient()');
  const apiFetch = options.fetch ?? defaultFetch();
  const session = sessionFor(options, apiFetch);
  const clientId =
    typeof options.clientId === 'string' && options.clientId !== '' ? options.clientId : undefined;
  const tokenHeader = checkTokenHeader(options.tokenHeader, 'createServiceClient()');
  const context: ServiceContext = {
    baseUrl,
    fetch: withBearer(apiFetch, session, { clientId, tokenHeader }),
  };
  const storageFetch = options.storageFetch;
  const journals = new Map<string, Journal>();
  /** The `transcribe()` call in flight per caller-chosen transaction id (each resolves, never rejects). */
  const running = new Map<string, Promise<void>>();
  const retryOf = (given: RetryOptions | undefined) => given ?? options.retry;

  const journalOf = (transactionId: string): Journal => {
    let journal = journals.get(transactionId);
    if (journal) return journal;
    journal = { grant: undefined, stored: new Set(), started: undefined };
    journals.set(transactionId, journal);
    if (journals.size > JOURNAL_LIMIT) journals.delete(journals.keys().next().value as string);
    return journal;
  };

  const upload = (
    grant: UploadGrant,
    file: AudioFile,
    step: {
      signal?: AbortSignal | undefined;
      retry?: RetryOptions | undefined;
      onProgress?: ProgressListener;
    },
  ) =>
    uploadWithRetries(grant, file, {
      ...(storageFetch ? { fetch: storageFetch } : {}),
      ...(step.signal ? { signal: step.signal } : {}),
      ...(retryOf(step.retry) ? { retry: retryOf(step.retry) as RetryOptions } : {}),
      ...(step.onProgress ? { onProgress: step.onProgress } : {}),
      regrant: () =>
        requestUploadGrant(context, grant.transactionId, {
          signal: step.signal,
          retry: retryOf(step.retry),
          onProgress: step.onProgress,
          reason: 'policy-refused',
        }),
    });

  const start: ServiceClient['start'] = (grant, fileNames, params, startOptions = {}) => {
    checkTranscription(params, fileNames);
    return postStart(context, grant.transactionId, startBody(params, fileNames, grant, startOptions), {
      signal: startOptions.signal,
      retry: retryOf(startOptions.retry),
      onProgress: startOptions.onProgress,
    });
  };

  /**
   * Whether the service already has this transaction started (a retried call in a new process).
   * 400 `transaction_not_found` means not yet; any answer of a started transaction means yes;
   * a network error, 408, 429 or 5xx without a result is asked again like any other step.
   */
  function startedAtService(
    transactionId: string,
    signal: AbortSignal,
    retry: RetryOptions | undefined,
    emit: ProgressListener,
  ): Promise<boolean> {
    const attempt = async (poll: number): Promise<Attempt<boolean>> => {
      try {
        const state = await fetchResultState(context, transactionId, { signal });
        emit({ step: 'status', transactionId, httpStatus: state.httpStatus, poll });
        return { ok: true, value: true };
      } catch (error) {
        if (!isTranscriptionError(error)) throw error;
        if (error.code === 'ERR_TRANSACTION_NOT_FOUND') return { ok: true, value: false };
        if (error.code === 'ERR_TRANSCRIPTION_FAILED') return { ok: true, value: true };
        const transient =
          error.code === 'ERR_SERVICE_UNREACHABLE' ||
          (error.code === 'ERR_RESULT_FAILED' &&
            error.status !== undefined &&
            isTransientStatus(error.status));
        if (!transient) throw error;
        return {
          ok: false,
          error,
          reason: error.status === undefined ? 'network error' : `service answered ${error.status}`,
        };
      }
    };
    return withRetries(attempt, resolveRetry(retry), signal, (report) =>
      emit({ step: 'retry', transactionId, of: 'status', ...report }),
    );
  }

  async function transcribe(
    files: readonly AudioFile[],
    params: TranscriptionParams,
    transcribeOptions: TranscribeOptions,
    signal: AbortSignal,
    emit: ProgressListener,
  ): Promise<TranscriptionStarted> {
    const checked = checkTranscription(
      params,
      files.map((file) => file?.name),
      files,
    );
    const names = files.map((file) => file.name);
    const givenId = checked.transaction_id;
    const transactionId = givenId ?? globalThis.crypto.randomUUID();
    const known = journals.has(transactionId);
    const journal = journalOf(transactionId);
    const alreadyStarted = (): TranscriptionStarted => ({
      transactionId,
      status: 'already-started',
      message: undefined,
      businessId: undefined,
      alreadyStarted: true,
      grant: journal.grant,
      files: names,
    });
    if (journal.started)
      return { ...journal.started, alreadyStarted: true, grant: journal.grant, files: names };
    // A caller-chosen id this client has not seen may be a retry from another process: ask first,
    // and never upload into a transaction that has started.
    const retry = retryOf(transcribeOptions.retry);
    if (givenId !== undefined && !known && (await startedAtService(transactionId, signal, retry, emit))) {
      journal.started = alreadyStarted();
      return journal.started as TranscriptionStarted;
    }
    const step = { signal, retry, onProgress: emit };
    journal.grant ??= await requestUploadGrant(context, transactionId, step);
    let folderChanges = 0;
    for (let index = 0; index < files.length; index++) {
      const file = files[index]!;
      if (journal.stored.has(file.name)) {
        const size =
          file.data instanceof Uint8Array ? file.data.byteLength : (file.data as { size: number }).size;
        emit({
          step: 'file',
          transactionId,
          file: file.name,
          bytesSent: size,
          totalBytes: size,
          attempt: 0,
          done: true,
          skipped: true,
        });
        continue;
      }
      const before: UploadGrant = journal.grant;
      try {
        journal.grant = await upload(before, file, step);
      } catch (error) {
        // A fresh grant refused with 409: the transaction started meanwhile; it takes no files.
        if (isTranscriptionError(error) && error.code === 'ERR_UPLOAD_GRANT_FAILED' && error.status === 409) {
          journal.started = alreadyStarted();
          return journal.started as TranscriptionStarted;
        }
        throw error;
      }
      if (journal.grant.folderPath !== before.folderPath) {
        // The fresh grant names another folder: start reads one folder, so the files stored
        // under the old one go again under the new one.
        if (++folderChanges > MAX_FOLDER_CHANGES) {
          throw new TranscriptionError(
            'ERR_UPLOAD_FAILED',
            `Every fresh upload grant for transaction ${JSON.stringify(transactionId)} named another folder; gave up after ${MAX_FOLDER_CHANGES}. Try again later.`,
          );
        }
        journal.stored.clear();
        journal.stored.add(file.name);
        index = -1;
        continue;
      }
      journal.stored.add(file.name);
    }
    const grant = journal.grant;
    const started = await postStart(
      context,
      transactionId,
      startBody({ ...checked, transaction_id: transactionId }, names, grant, transcribeOptions),
      { signal, retry, onProgress: emit, conflictIsStarted: true },
    );
    journal.started = started;
    return { ...started, grant, files: names };
  }

  return {
    session,
    async transcribe(files, params, transcribeOptions = {}) {
      // Calls for one transaction id run one after the other, so that a second call sees what the
      // first did (and never uploads into a transaction the first one started).
      const id = typeof params?.transaction_id === 'string' ? params.transaction_id : undefined;
      const before = id === undefined ? undefined : running.get(id);
      let done = () => {};
      const mine = new Promise<void>((resolve) => {
        done = resolve;
      });
      if (id !== undefined) running.set(id, mine);
      const controller = linkedController(transcribeOptions.signal);
      try {
        await before;
        const emit = progressEmitter(transcribeOptions.onProgress, controller.controller);
        return await transcribe(files, params, transcribeOptions, controller.controller.signal, emit);
      } finally {
        controller.release();
        done();
        if (id !== undefined && running.get(id) === mine) running.delete(id);
      }
    },
    requestUploadGrant: (transactionId, step = {}) =>
      requestUploadGrant(context, transactionId, { ...step, retry: retryOf(step.retry) }),
    uploadFile: (grant, file, step = {}) => upload(grant, file, step),
    start,
    getResult: (transactionId, resultOptions = {}) => fetchResultState(context, transactionId, resultOptions),
    waitForResult: (transactionId, waitOptions = {}) =>
      waitForResultState(context, transactionId, waitOptions),
    subscribeWebhook: (request) => createWebhookSubscription(context, request),
  };
}
