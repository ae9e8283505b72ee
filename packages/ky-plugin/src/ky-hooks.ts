import { callSettings } from './context.js';
import { JweRequestError, JweResponseError } from './errors.js';
import { decryptIncoming } from './incoming.js';
import { isMultipartForm, saysJwe } from './media-type.js';
import { type JweOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { encryptOutgoing, type OutgoingBody, type OutgoingRequest } from './outgoing.js';

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
  hooks: {
    beforeRequest: JweKyHook<Request | Response | undefined>[];
    afterResponse: JweKyHook<Response | undefined>[];
    beforeRetry: JweKyHook<Request | undefined>[];
  };
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

function outgoingView(request: Request, options: KyOptionsView): OutgoingRequest {
  // ky's options.body is the caller's FormData; use it (no multipart parsing, files stay on disk)
  // only while the request still carries that form, not after a hook or a retry replaced the body.
  const original = isMultipartForm(request.headers.get('content-type')) ? options.body : undefined;
  return {
    method: request.method,
    headers: request.headers,
    original,
    bytes: async () => new Uint8Array(await request.arrayBuffer()),
    formData: () => request.clone().formData(),
  };
}

function streamedInit(request: Request, body: Extract<OutgoingBody, { kind: 'streamed' }>): RequestInit {
  return {
    method: request.method,
    headers: body.headers,
    body: body.body,
    // Node's fetch needs this for a stream body; a streamed body can be sent once only.
    duplex: 'half',
    signal: request.signal,
    redirect: request.redirect,
    credentials: request.credentials,
    referrerPolicy: request.referrerPolicy,
  } as RequestInit;
}

/**
 * Locks a request body that will never be sent. ky 2.x cancels leftover request bodies when a
 * call ends, and on Node 24 cancelling an unread FormData body makes undici's producer enqueue
 * into a closed stream: an unhandled rejection. A locked body makes that cancel a caught no-op.
 */
function retireBody(request: Request): void {
  if (request.body && !request.body.locked) request.body.getReader();
}

function pickFetch(options: ResolvedOptions, kyOptions: KyOptionsView): typeof globalThis.fetch {
  if (options.fetch) return options.fetch;
  if (typeof kyOptions.fetch === 'function') return kyOptions.fetch as typeof globalThis.fetch;
  return globalThis.fetch;
}

/**
 * ky options that encrypt request bodies and decrypt responses, for ky 1.x and 2.x:
 * `const api = ky.create({ prefixUrl }).extend(jwe({ key, kid }))`.
 *
 * Add it last: ky 1.x skips the `beforeRequest` hooks after one that returns a new request.
 */
export function jwe(options: JweOptions): JweKyOptions {
  const resolved = resolveOptions(options);
  // Requests whose envelope was streamed by this plugin itself; ky must not retry them.
  const streamedRequests = new WeakSet<Request>();

  const beforeRequest: JweKyHook<Request | Response | undefined> = async (...args) => {
    const { request, options: kyOptions } = hookArguments(args);
    if (!callSettings(kyOptions.context, resolved).encryptRequest) return undefined;
    if (resolved.encrypt !== 'all' && !(await resolved.encrypt(request))) return undefined;
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
    return pickFetch(resolved, kyOptions)(request.url, streamedInit(request, body));
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
    if (error instanceof JweResponseError || error instanceof JweRequestError) throw error;
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
    hooks: { beforeRequest: [beforeRequest], afterResponse: [afterResponse], beforeRetry: [beforeRetry] },
  };
}
