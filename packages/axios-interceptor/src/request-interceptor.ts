import type { JweCallOptions, UploadProgressListener } from '@jwe-transport/client-core';
import type { JweClient, SealedBody } from '@jwe-transport/client-core/adapter';
import axios, { type AxiosProgressEvent, type InternalAxiosRequestConfig } from 'axios';
import { toFetchHeaders } from './axios-headers.js';
import { CALL_STATE, type CallState, type ConfigWithState } from './call-state.js';
import type { Platform } from './platform.js';
import { alreadyRead, marker, noteRead, type Original, recall, replay, wasRead } from './replay.js';

const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/**
 * Where the call goes, as axios's buildFullPath would put it, without the query string (the core
 * needs the origin, and messages never quote a query). Cheaper than `instance.getUri`, which
 * merges the whole config again.
 */
function requestUrl(config: InternalAxiosRequestConfig): string {
  const path = config.url ?? '';
  const absolute =
    ABSOLUTE_URL.test(path) && (config as { allowAbsoluteUrls?: boolean }).allowAbsoluteUrls !== false;
  if (!config.baseURL || absolute) return path;
  return path ? `${config.baseURL.replace(/\/?\/$/, '')}/${path.replace(/^\/+/, '')}` : config.baseURL;
}

function isWebStream(data: unknown): boolean {
  return typeof ReadableStream !== 'undefined' && data instanceof ReadableStream;
}

function isPlainJson(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return typeof data === 'number' || typeof data === 'boolean';
  if (Array.isArray(data)) return true;
  const prototype = Object.getPrototypeOf(data);
  return prototype === Object.prototype || prototype === null;
}

function adapterName(config: InternalAxiosRequestConfig): string | undefined {
  try {
    return (axios.getAdapter(config.adapter, config) as { adapterName?: string }).adapterName;
  } catch {
    return undefined;
  }
}

/**
 * A streamed envelope for the adapter. On the http adapter, axios follows redirects through
 * follow-redirects, which keeps every chunk of a request body to replay it: for a streamed upload
 * that is the whole envelope in memory. A stream cannot be replayed anyway (fetch refuses to
 * redirect one), so the call goes out without redirects and a 3xx comes back as the response.
 */
function streamedUpload(
  config: InternalAxiosRequestConfig,
  body: ReadableStream<Uint8Array>,
  platform: Platform,
) {
  const name = adapterName(config);
  if (name === 'http') {
    config.maxRedirects = 0;
    // A server may answer early and close the connection: its answer is read, not lost to EPIPE.
    platform.prepareHttpUpload(config as { transport?: unknown });
  }
  return platform.uploadBody(body, name);
}

/** axios throttles its own progress events to three a second; these follow the same cadence. */
const PROGRESS_INTERVAL_MS = 1000 / 3;

/**
 * The caller's `onUploadProgress` in plaintext terms. A file is sealed as a stream with a
 * listener that counts how much of it the sealer has read (as fast as the socket takes the
 * envelope); the caller's callback gets that count and the file's size, at most three times a
 * second like axios's own events, and once more at the end. axios's own progress stream, which
 * would count envelope bytes, is not set up at all: its callback is taken off the config (and put
 * back with the rest of it once the answer is handled).
 */
function plaintextProgress(config: InternalAxiosRequestConfig) {
  const callback = config.onUploadProgress;
  if (typeof callback !== 'function') return undefined;
  let reported = 0;
  let reportedAt = Number.NEGATIVE_INFINITY;
  const listener: UploadProgressListener = ({ loaded, total }) => {
    const now = Date.now();
    const last = loaded === total;
    if (!last && now - reportedAt < PROGRESS_INTERVAL_MS) return;
    const event: AxiosProgressEvent = {
      loaded,
      bytes: loaded - reported,
      lengthComputable: total !== undefined,
      upload: true,
    };
    if (total !== undefined) {
      event.total = total;
      event.progress = total ? loaded / total : 1;
    }
    reported = loaded;
    reportedAt = now;
    callback(event);
  };
  return { listener };
}

/** What to send instead of `data`; `string` when the core sealed JSON synchronously. */
async function sealData(
  client: JweClient,
  data: unknown,
  headers: () => Headers,
  platform: Platform,
  onProgress: UploadProgressListener | undefined,
): Promise<SealedBody | string> {
  // Plain objects are what axios would JSON.stringify; seal that text instead.
  if (isPlainJson(data)) {
    const text = JSON.stringify(data);
    return client.sealJsonSync(text) ?? client.sealJson(text, headers());
  }
  const stream = platform.streamSource(data);
  if (stream !== undefined) return client.seal(stream, headers(), { onProgress });
  return client.seal(data as Parameters<JweClient['seal']>[0], headers(), { onProgress });
}

/**
 * Seals `config.data` when the call is in scope, and switches the response to raw bytes so that
 * the response interceptor can open it before anything parses it.
 */
export function requestInterceptor(client: JweClient, platform: Platform, owner: object) {
  return async function sealRequest(config: InternalAxiosRequestConfig): Promise<InternalAxiosRequestConfig> {
    // A retry or replay of a config this library sealed: back to the caller's data, sealed afresh.
    const replayed = recall(config);
    if (replayed) replay(config, replayed);
    const call = (config as { jwe?: JweCallOptions }).jwe;
    const url = requestUrl(config);
    const method = (config.method ?? 'get').toUpperCase();
    let converted: Headers | undefined;
    // Converted only when needed: the common JSON call never reads them.
    const headers = () => (converted ??= toFetchHeaders(config.headers));
    // Without a per-call switch or a filter there is nothing to wait for.
    const plan =
      call === undefined && client.options.encrypt === 'all' && client.inScope(url)
        ? { seal: true, responses: client.options.responses }
        : await client.plan({ url, method, headers: headers() }, call);
    if (plan.responses === 'never' && !plan.seal) return config;
    const settings = config as { maxRedirects?: number; transport?: unknown };
    const original: Original = {
      data: config.data,
      contentType: config.headers.get('Content-Type') ?? undefined,
      responseType: config.responseType,
      transformRequest: config.transformRequest,
      transformResponse: config.transformResponse,
      maxRedirects: settings.maxRedirects,
      transport: settings.transport,
      onUploadProgress: config.onUploadProgress,
      oneShot: platform.streamSource(config.data) !== undefined || isWebStream(config.data),
    };

    const state: CallState = {
      owner,
      original,
      context: { method, url, sealed: false, mode: plan.responses },
      responseType: config.responseType,
      transformResponse: config.transformResponse,
    };
    if (plan.seal && config.data !== undefined && config.data !== null) {
      if (wasRead(config.data)) throw alreadyRead();
      noteRead(original);
      const progress = plaintextProgress(config);
      const sealed = await sealData(client, config.data, headers, platform, progress?.listener);
      if (typeof sealed === 'string' || sealed.kind !== 'empty') {
        config.data =
          typeof sealed === 'string'
            ? sealed
            : sealed.kind === 'streamed'
              ? streamedUpload(config, sealed.body, platform)
              : typeof sealed.body === 'string'
                ? sealed.body
                : platform.bytesBody(sealed.body);
        config.headers.set('X-Encryption', 'JWE');
        config.headers.setContentType('application/json');
        config.headers.delete('Content-Length');
        if (progress && typeof sealed !== 'string' && sealed.payload === 'file')
          delete config.onUploadProgress;
        // The envelope is final: a transform (axios's own included) must not touch it.
        config.transformRequest = [marker(original)];
        state.context.sealed = true;
      }
    }
    if (plan.responses !== 'never') {
      config.responseType = 'arraybuffer';
      config.transformResponse = [marker(original)];
    }
    if (plan.responses !== 'never' || state.context.sealed) (config as ConfigWithState)[CALL_STATE] = state;
    return config;
  };
}
