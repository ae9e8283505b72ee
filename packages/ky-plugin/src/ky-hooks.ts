import { isJweError } from '@jwe-transport/codec';
import { callSettings } from './context.js';
import { JweRequestError, JweResponseError } from './errors.js';
import { decryptIncoming } from './incoming.js';
import { isJsonMediaType, isMultipartForm, saysJwe } from './media-type.js';
import { isNodeRuntime, nodeStreamingUpload, streamedFetchInit } from './node-upload.js';
import { type JweOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { encryptOutgoing, markEnvelope, type OutgoingBody, type OutgoingRequest } from './outgoing.js';
import { jsonSealer } from './sealed-json.js';

/** What the hooks read from ky's normalized options (the same names in ky 1.x and 2.x). */
interface KyOptionsView {
  body?: unknown;
  context?: unknown;
  fetch?: unknown;
}

interface HookArguments {
  request: Request;
  options: KyOptionsView;
  response?: Response;
}

/**
 * A hook that fits both ky generations: parameters are `unknown` so that the function is
 * assignable to ky 1.x's positional signatures and to ky 2.x's single state object alike.
 */
export type JweKyHook<Result> = (...args: unknown[]) => Promise<Result>;

/** The options `jwe()` returns, to spread into `ky.create()` or pass to `.extend()`. */
export interface JweKyOptions {
  /**
   * Seals `json` bodies as ky serializes them, so ky builds its request once. Present on Node with
   * a static key and `encrypt: 'all'`; give your own serializer to `jwe({ stringifyJson })`.
   */
  stringifyJson?: (data: unknown) => string;
  hooks: {
    /** ky 2.x only (ky 1.x ignores it): keeps large files out of the `Request` ky builds. */
    init: ((...args: unknown[]) => void)[];
    beforeRequest: JweKyHook<Request | Response | undefined>[];
    afterResponse: JweKyHook<Response | undefined>[];
    beforeRetry: JweKyHook<Request | undefined>[];
  };
}

function pick<T extends object, K extends keyof T>(value: T, name: K): Pick<T, K> | undefined {
  return value[name] === undefined ? undefined : ({ [name]: value[name] } as Pick<T, K>);
}

function isRequest(value: unknown): value is Request {
  return value instanceof Request || Object.prototype.toString.call(value) === '[object Request]';
}

/**
 * ky 1.x calls hooks positionally: `(request, options, state)` and `(request, options, response, state)`;
 * ky 2.x passes one state object `{ request, options, response?, retryCount }`. Tell them apart by
 * the first argument, not by a version number.
 */
function hookArguments(args: unknown[]): HookArguments {
  const [first, second, third] = args;
  if (isRequest(first)) {
    const view: HookArguments = { request: first, options: (second ?? {}) as KyOptionsView };
    if (third instanceof Response) view.response = third;
    return view;
  }
  const state = first as { request?: unknown; options?: KyOptionsView; response?: Response } | undefined;
  if (!state || !isRequest(state.request)) {
    throw new TypeError(
      'jwe(): these hooks are for ky 1.x or 2.x; they were called with unexpected arguments.',
    );
  }
  const view: HookArguments = { request: state.request, options: state.options ?? {} };
  if (state.response) view.response = state.response;
  return view;
}

/** Where the init hook parks a form whose file is too large to hand to `new Request()`. */
const DEFERRED_FORM = Symbol('jwe-transport deferred form');

function deferredForm(options: KyOptionsView): FormData | undefined {
  const context = options.context as { [DEFERRED_FORM]?: FormData } | undefined;
  return context?.[DEFERRED_FORM];
}

function outgoingView(request: Request, options: KyOptionsView): OutgoingRequest {
  // ky's options.body is the caller's FormData; use it (no multipart parsing, files stay on disk)
  // only while the request still carries that form, not after a hook or a retry replaced the body.
  const contentType = request.headers.get('content-type');
  // The JSON text ky made from the `json` option, unless the request is already an envelope (a retry).
  const jsonText =
    typeof options.body === 'string' && isJsonMediaType(contentType) && !saysJwe(request.headers)
      ? options.body
      : undefined;
  const original = deferredForm(options) ?? (isMultipartForm(contentType) ? options.body : jsonText);
  return {
    method: request.method,
    headers: request.headers,
    original,
    bytes: async () => new Uint8Array(await request.arrayBuffer()),
    formData: () => request.clone().formData(),
  };
}

/**
 * Locks a request body that will never be sent. ky 2.x cancels leftover request bodies when a
 * call ends, and on Node 24 cancelling an unread FormData body makes undici's producer enqueue
 * into a closed stream: an unhandled rejection. A locked body makes that cancel a caught no-op.
 */
function retireBody(request: Request): void {
  if (request.body && !request.body.locked) request.body.getReader();
}

/** Sends a streamed envelope: the plugin's `fetch` option if set, node:http on Node, else ky's fetch. */
function sendStreamed(
  request: Request,
  body: Extract<OutgoingBody, { kind: 'streamed' }>,
  options: ResolvedOptions,
  kyOptions: KyOptionsView,
): Promise<Response> {
  const upload = { method: request.method, headers: body.headers, body: body.body, signal: request.signal };
  if (options.fetch) return options.fetch(request.url, streamedFetchInit(upload));
  if (isNodeRuntime()) return nodeStreamingUpload(request.url, upload);
  const fetchImpl =
    typeof kyOptions.fetch === 'function' ? (kyOptions.fetch as typeof fetch) : globalThis.fetch;
  return fetchImpl(request.url, streamedFetchInit(upload));
}

/**
 * ky options that encrypt request bodies and decrypt responses, for ky 1.x and 2.x:
 * `const api = ky.create({ prefixUrl }).extend(jwe({ key, kid }))`.
 *
 * Add it last: ky 1.x skips the `beforeRequest` hooks after one that returns a new request.
 */
export function jwe(options: JweOptions): JweKyOptions {
  const resolved = resolveOptions(options);
  const sealer = jsonSealer(resolved, options.stringifyJson);
  // Requests whose envelope was streamed by this plugin itself; ky must not retry them.
  const streamedRequests = new WeakSet<Request>();

  /*
   * On Node 22+ constructing a `Request` whose FormData holds a file reads the whole file into
   * memory, and ky builds one for every call. ky 2.x runs `init` hooks first: a form that is
   * one large file is taken out of the options and parked in the per-call context for
   * `beforeRequest`, which streams it.
   */
  const init = (...args: unknown[]): void => {
    const kyOptions = args[0] as Record<string, unknown>;
    const form = kyOptions.body;
    if (typeof FormData === 'undefined' || !(form instanceof FormData)) return;
    if (!callSettings(kyOptions.context, resolved).encryptRequest) return;
    const file = form.get('file');
    let fields = 0;
    form.forEach(() => {
      fields++;
    });
    if (fields !== 1 || !(file instanceof Blob) || file.size <= resolved.streamThreshold) return;
    kyOptions.context = { ...(kyOptions.context as object | undefined), [DEFERRED_FORM]: form };
    delete kyOptions.body;
  };

  const beforeRequest: JweKyHook<Request | Response | undefined> = async (...args) => {
    const { request, options: kyOptions } = hookArguments(args);
    const parked = deferredForm(kyOptions);
    const restore = () => (parked ? new Request(request, { body: parked }) : undefined);
    const encryptRequest = callSettings(kyOptions.context, resolved).encryptRequest;
    if (sealer?.claim(kyOptions.body)) {
      if (!encryptRequest) return new Request(request, { body: await sealer.plaintextOf(kyOptions.body) });
      // The body is already the envelope: only the headers change, and a Request's headers may.
      markEnvelope(request.headers);
      return undefined;
    }
    if (!encryptRequest) return restore();
    if (resolved.encrypt !== 'all' && !(await resolved.encrypt(request))) return restore();
    let body: OutgoingBody;
    try {
      body = await encryptOutgoing(outgoingView(request, kyOptions), resolved);
    } catch (error) {
      retireBody(request);
      throw error;
    }
    if (body.kind === 'unchanged') return undefined;
    if (body.kind === 'buffered') return new Request(request, { headers: body.headers, body: body.body });
    // A streamed body cannot go back to ky: ky clones every request it may retry, and cloning a
    // stream buffers all of it. Send it here and hand ky the response.
    streamedRequests.add(request);
    retireBody(request);
    return sendStreamed(request, body, resolved, kyOptions);
  };

  const afterResponse: JweKyHook<Response | undefined> = async (...args) => {
    const { request, options: kyOptions, response } = hookArguments(args);
    if (!response) return undefined;
    const mode = callSettings(kyOptions.context, resolved).responses;
    return decryptIncoming(response, {
      method: request.method,
      url: response.url || request.url,
      mode,
      options: resolved,
      consumable: true,
    });
  };

  const beforeRetry: JweKyHook<Request | undefined> = async (...args) => {
    const state = args[0] as { request: Request; options?: KyOptionsView; error?: unknown };
    const { request, error } = state;
    // Neither a failed decryption nor a request we could not encrypt gets better by sending it again.
    if (error instanceof JweResponseError || error instanceof JweRequestError || isJweError(error))
      throw error;
    // Its body was a one-shot stream: fail with the original error instead of retrying.
    if (streamedRequests.has(request)) throw error;
    if (!saysJwe(request.headers) || request.body === null) return undefined;
    if (!callSettings(state.options?.context, resolved).encryptRequest) return undefined;
    // ky 2.x resends its clone of the first attempt; seal the plaintext again under a fresh IV.
    const body = await encryptOutgoing(outgoingView(request, state.options ?? {}), resolved);
    return body.kind === 'buffered'
      ? new Request(request, { headers: body.headers, body: body.body })
      : undefined;
  };

  return {
    ...(sealer ? { stringifyJson: sealer.stringifyJson } : pick(options, 'stringifyJson')),
    hooks: {
      init: [init],
      beforeRequest: [beforeRequest],
      afterResponse: [afterResponse],
      beforeRetry: [beforeRetry],
    },
  };
}
