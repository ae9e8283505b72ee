import { withBearer } from './auth/bearer-fetch.js';
import { clientCredentialsLogin, refreshTokenExchange } from './auth/endpoints.js';
import { createTokenSession, type TokenSession } from './auth/session.js';
import type { ServiceContext } from './http/call.js';
import { defaultFetch, type FetchLike, parseBaseUrl } from './http/fetch-like.js';
import type { KeyValueStore } from './store/types.js';
import { checkTranscription } from './transcription/check.js';
import type { DecodeOptions } from './transcription/decode.js';
import { requestUploadGrant, type UploadGrant } from './transcription/grant.js';
import type { TranscriptionParams } from './transcription/params.js';
import { postStart, type StartedTranscription, type StartOptions, startBody } from './transcription/start.js';
import { fetchResultState, type ResultState } from './transcription/status.js';
import { type AudioFile, uploadToStorage } from './transcription/storage-upload.js';
import {
  createWebhookSubscription,
  type WebhookSubscription,
  type WebhookSubscriptionRequest,
} from './transcription/subscription.js';
import { type FinishedResult, type WaitOptions, waitForResultState } from './transcription/wait.js';

export interface ServiceClientOptions {
  /** The service's base address, e.g. `https://api.example.com`. */
  baseUrl: string | URL;
  /** Client credentials; the client logs in and refreshes with them. Not needed with `session`. */
  clientId?: string;
  clientSecret?: string;
  /** A session of your own (e.g. one shared with other code). */
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
}

export interface TranscribeOptions extends StartOptions {}

/** What `transcribe()` did: the grant used, the files uploaded and the start answer. */
export interface TranscriptionStarted extends StartedTranscription {
  grant: UploadGrant;
  files: string[];
}

/** The transcription workflow on the documented wire, with login and refresh built in. */
export interface ServiceClient {
  readonly session: TokenSession;
  /**
   * The whole upload: checks `params` (spec 2.7) and the files first, then asks for a grant,
   * uploads each file to the storage, and starts the transaction.
   */
  transcribe(
    files: readonly AudioFile[],
    params: TranscriptionParams,
    options?: TranscribeOptions,
  ): Promise<TranscriptionStarted>;
  /** Step 1: a presigned-POST grant for `transactionId`. */
  requestUploadGrant(transactionId: string, options?: { signal?: AbortSignal }): Promise<UploadGrant>;
  /** Step 2: one file to the storage. */
  uploadFile(grant: UploadGrant, file: AudioFile, options?: { signal?: AbortSignal }): Promise<void>;
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
    refresh: refreshTokenExchange({ baseUrl, fetch: fetchImpl }),
    ...(options.store ? { store: options.store, storeKey: `tokens:${clientId}` } : {}),
  });
}

/** Creates a {@link ServiceClient}. Nothing is sent until the first call. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = parseBaseUrl(options?.baseUrl, 'createServiceClient()');
  const apiFetch = options.fetch ?? defaultFetch();
  const session = sessionFor(options, apiFetch);
  const context: ServiceContext = { baseUrl, fetch: withBearer(apiFetch, session) };
  const storage = options.storageFetch ? { fetch: options.storageFetch } : {};
  const signalOf = (signal: AbortSignal | undefined) => (signal ? { signal } : {});

  const start: ServiceClient['start'] = (grant, fileNames, params, startOptions = {}) => {
    checkTranscription(params, fileNames);
    return postStart(
      context,
      grant.transactionId,
      startBody(params, fileNames, grant, startOptions),
      startOptions.signal,
    );
  };

  return {
    session,
    async transcribe(files, params, transcribeOptions = {}) {
      const checked = checkTranscription(
        params,
        files.map((file) => file?.name),
        files,
      );
      const transactionId = checked.transaction_id ?? globalThis.crypto.randomUUID();
      const grant = await requestUploadGrant(context, transactionId, transcribeOptions.signal);
      for (const file of files) {
        await uploadToStorage(grant, file, { ...storage, ...signalOf(transcribeOptions.signal) });
      }
      const names = files.map((file) => file.name);
      const started = await start(
        grant,
        names,
        { ...checked, transaction_id: transactionId },
        transcribeOptions,
      );
      return { ...started, grant, files: names };
    },
    requestUploadGrant: (transactionId, callOptions = {}) =>
      requestUploadGrant(context, transactionId, callOptions.signal),
    uploadFile: (grant, file, callOptions = {}) =>
      uploadToStorage(grant, file, { ...storage, ...signalOf(callOptions.signal) }),
    start,
    getResult: (transactionId, resultOptions = {}) => fetchResultState(context, transactionId, resultOptions),
    waitForResult: (transactionId, waitOptions = {}) =>
      waitForResultState(context, transactionId, waitOptions),
    subscribeWebhook: (request) => createWebhookSubscription(context, request),
  };
}
