import { Readable } from 'node:stream';
import type { JweClientOptions, UploadProgress, UploadProgressListener } from '@jwe-transport/client-core';
import {
  type CallPlan,
  createJweClient,
  type JweClient,
  type ResponseContext,
} from '@jwe-transport/client-core/adapter';
import type { Dispatcher } from 'undici';
import { sealJsonInline } from './inline-json.js';
import { claimOneShot } from './one-shot-body.js';
import { OpeningHandler } from './opening-handler.js';
import { readWhenSmall, sealDispatchBody, utf8Text } from './request-body.js';
import { fromHeaders, toHeaders } from './request-headers.js';
import { isSealedByUs, markSealed } from './sealed-mark.js';

export interface JweInterceptorOptions extends Omit<JweClientOptions, 'origins'> {
  /**
   * The origins whose requests are sealed and whose responses are opened, such as
   * `['https://api.example.com']`. Required: a global dispatcher sees every request the process
   * makes, and requests to any other origin pass through untouched.
   */
  origins: readonly (string | URL)[];
  /**
   * Upload progress of every sealed file upload, in plaintext bytes of the file, with the request
   * it belongs to (`undici.request()` also takes an `onUploadProgress` option per call). A file is
   * then sealed as a stream whatever its size. JSON bodies report nothing; there is no download
   * progress (an answer is opened only once its tag verifies).
   */
  onUploadProgress?: (progress: UploadProgress, request: { method: string; url: string }) => void;
}

/** `undici.request(url, { onUploadProgress })`: request() hands unknown options to the dispatcher. */
type WithProgress = Dispatcher.DispatchOptions & { onUploadProgress?: unknown };

function listenerFor(
  options: JweInterceptorOptions,
  opts: WithProgress,
  url: string,
): UploadProgressListener | undefined {
  const own = opts.onUploadProgress;
  if (own !== undefined && typeof own !== 'function') {
    throw new TypeError('jweInterceptor: "onUploadProgress" must be a function (progress) => void.');
  }
  if (typeof own === 'function') return own as UploadProgressListener;
  const shared = options.onUploadProgress;
  if (shared === undefined) return undefined;
  const request = { method: opts.method, url };
  return (progress) => shared(progress, request);
}

function originOf(origin: Dispatcher.DispatchOptions['origin']): string | undefined {
  if (origin === undefined || origin === null) return undefined;
  try {
    return new URL(String(origin)).origin;
  } catch {
    return undefined;
  }
}

/** A controller for a request that failed before it was dispatched: there is nothing to control. */
const DETACHED: Dispatcher.DispatchController = {
  aborted: true,
  paused: false,
  reason: null,
  abort() {},
  pause() {},
  resume() {},
};

/** What the core decides for a call; without a filter there is nothing to wait for. */
function planOf(
  client: JweClient,
  url: string,
  method: string,
  headers: Headers,
): CallPlan | Promise<CallPlan> {
  const { encrypt, responses } = client.options;
  return encrypt === 'all' ? { seal: true, responses } : client.plan({ url, method, headers });
}

async function dispatchSealed(
  client: JweClient,
  dispatch: Dispatcher.Dispatch,
  opts: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
  url: string,
  onProgress: UploadProgressListener | undefined,
): Promise<void> {
  const headers = toHeaders(opts.headers);
  const plan = await planOf(client, url, opts.method, headers);
  const context: ResponseContext = { method: opts.method, url, sealed: false, mode: plan.responses };
  if (!plan.seal) {
    dispatch(opts, plan.responses === 'never' ? handler : new OpeningHandler(handler, client, context));
    return;
  }
  claimOneShot(opts.body, handler);
  const small = await readWhenSmall(opts.body, headers, client.options.streamThreshold);
  if (small !== undefined && onProgress === undefined) {
    opts = { ...opts, body: small };
    // What fetch sends as a string arrives here as bytes: JSON text takes the synchronous path too.
    const text = utf8Text(small);
    const inline = text === undefined ? undefined : sealJsonInline(client, { ...opts, body: text });
    if (inline !== undefined) {
      context.sealed = true;
      dispatch(markSealed(inline), new OpeningHandler(handler, client, context));
      return;
    }
  }
  const sealed = await sealDispatchBody(small ?? opts.body, headers, client, onProgress);
  if (sealed.kind === 'empty') {
    dispatch(opts, new OpeningHandler(handler, client, context));
    return;
  }
  context.sealed = true;
  const body =
    sealed.kind === 'buffered'
      ? sealed.body
      : Readable.fromWeb(sealed.body as import('node:stream/web').ReadableStream<Uint8Array>);
  dispatch(
    markSealed({ ...opts, body, headers: fromHeaders(sealed.headers) }),
    new OpeningHandler(handler, client, context),
  );
}

/**
 * An undici interceptor that seals request bodies to the configured `origins` into JWE envelopes
 * and opens their encrypted responses. Use it with `Dispatcher.compose()`:
 *
 * ```ts
 * const dispatcher = new Agent().compose(jweInterceptor({ key, kid, origins: ['https://api.example.com'] }));
 * ```
 */
export function jweInterceptor(options: JweInterceptorOptions): Dispatcher.DispatcherComposeInterceptor {
  if (
    options === null ||
    typeof options !== 'object' ||
    !Array.isArray(options.origins) ||
    options.origins.length === 0
  ) {
    throw new TypeError(
      'jweInterceptor: the "origins" option is required, for example { origins: ["https://api.example.com"] }: ' +
        'a dispatcher may see every request the process makes, and only these origins are encrypted.',
    );
  }
  const client = createJweClient(options);
  const origins = client.options.origins!;
  return (dispatch) =>
    function jweDispatch(opts, handler) {
      // undici hands most requests over with the origin already normalized: skip the URL parse.
      const origin =
        typeof opts.origin === 'string' && origins.has(opts.origin) ? opts.origin : originOf(opts.origin);
      if (
        origin === undefined ||
        !origins.has(origin) ||
        opts.upgrade ||
        opts.method === 'CONNECT' ||
        isSealedByUs(opts)
      ) {
        return dispatch(opts, handler);
      }
      const url = origin + opts.path;
      let onProgress: UploadProgressListener | undefined;
      try {
        onProgress = listenerFor(options, opts as WithProgress, url);
      } catch (error) {
        handler.onResponseError?.(DETACHED, error as Error);
        return true;
      }
      if (onProgress !== undefined) {
        // The option is this interceptor's: the dispatchers below never see it.
        const { onUploadProgress: _taken, ...rest } = opts as WithProgress;
        opts = rest;
      }
      const inline = sealJsonInline(client, opts);
      if (inline !== undefined) {
        const context: ResponseContext = {
          method: opts.method,
          url,
          sealed: true,
          mode: client.options.responses,
        };
        return dispatch(markSealed(inline), new OpeningHandler(handler, client, context));
      }
      dispatchSealed(client, dispatch, opts, handler, url, onProgress).catch((error: unknown) => {
        handler.onResponseError?.(DETACHED, error instanceof Error ? error : new Error(String(error)));
      });
      return true;
    };
}
