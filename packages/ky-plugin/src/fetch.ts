import { callSettings } from './context.js';
import { decryptIncoming } from './incoming.js';
import { isNodeRuntime, nodeStreamingUpload } from './node-upload.js';
import { type JweOptions, type JweRequestContext, resolveOptions } from './options.js';
import { encryptOutgoing, type OutgoingBody, type OutgoingRequest } from './outgoing.js';

/** `RequestInit` plus the per-call switch that ky users pass through `context`. */
export interface JweRequestInit extends RequestInit {
  /** `false` sends this call and reads its response untouched; or pick each direction. */
  jwe?: JweRequestContext;
}

export type JweFetch = (input: string | URL | Request, init?: JweRequestInit) => Promise<Response>;

/** The fetch signature this wrapper calls: the global fetch, undici's fetch, or any compatible one. */
export type FetchImplementation = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Request settings that survive the move from a `Request` into a fresh init object. */
function initFromRequest(request: Request): RequestInit {
  return {
    signal: request.signal,
    redirect: request.redirect,
    credentials: request.credentials,
    referrerPolicy: request.referrerPolicy,
    integrity: request.integrity,
    keepalive: request.keepalive,
    cache: request.cache,
    mode: request.mode,
  };
}

function outgoingView(input: string | URL | Request, init: RequestInit): OutgoingRequest {
  const source = input instanceof Request ? input : undefined;
  const headers = new Headers(init.headers ?? source?.headers);
  const hasInitBody = init.body !== undefined && init.body !== null;
  return {
    method: init.method ?? source?.method ?? 'GET',
    headers,
    original: hasInitBody ? init.body : undefined,
    bytes: async () =>
      new Uint8Array(
        await (hasInitBody ? new Response(init.body) : (source ?? new Response(null))).arrayBuffer(),
      ),
    formData: () => (hasInitBody ? new Response(init.body, { headers }) : source!.clone()).formData(),
  };
}

function encryptedInit(input: string | URL | Request, init: RequestInit, method: string, body: OutgoingBody) {
  if (body.kind === 'unchanged') throw new Error('unreachable');
  const result: RequestInit = {
    ...(input instanceof Request ? initFromRequest(input) : {}),
    ...init,
    method,
    headers: body.headers,
    body: body.body,
  };
  if (body.kind === 'streamed') (result as { duplex?: string }).duplex = 'half';
  return result;
}

function urlOf(input: string | URL | Request): string {
  return input instanceof Request ? input.url : String(input);
}

/**
 * A `fetch` that encrypts request bodies and decrypts responses like the ky plugin, for code that
 * calls fetch directly: `const jweFetch = createJweFetch({ key, kid })`. Pass `fetchImpl` to wrap
 * another fetch (undici's, an instrumented one); it is called as `fetchImpl(url, init)` whenever
 * the body was replaced, so it needs no `Request` class of its own.
 */
export function createJweFetch(options: JweOptions, fetchImpl?: FetchImplementation): JweFetch {
  const resolved = resolveOptions(options);
  const send: FetchImplementation = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  // Without an explicit fetch, streamed uploads on Node use node:http (see node-upload.ts).
  const sendStreamed = (url: string, init: RequestInit) =>
    !fetchImpl && isNodeRuntime()
      ? nodeStreamingUpload(url, {
          method: init.method ?? 'POST',
          headers: new Headers(init.headers),
          body: init.body as ReadableStream<Uint8Array>,
          signal: init.signal ?? null,
        })
      : send(url, init);
  return async (input, init = {}) => {
    const { jwe: perCall, ...requestInit } = init;
    const settings = callSettings({ jwe: perCall }, resolved);
    const view = outgoingView(input, requestInit);
    let encrypt = settings.encryptRequest;
    if (encrypt && resolved.encrypt !== 'all') {
      encrypt = await resolved.encrypt(
        new Request(urlOf(input), { method: view.method, headers: view.headers }),
      );
    }
    const body = encrypt ? await encryptOutgoing(view, resolved) : ({ kind: 'unchanged' } as const);
    const response =
      body.kind === 'unchanged'
        ? await send(input, requestInit)
        : body.kind === 'streamed'
          ? await sendStreamed(urlOf(input), encryptedInit(input, requestInit, view.method, body))
          : await send(urlOf(input), encryptedInit(input, requestInit, view.method, body));
    const decrypted = await decryptIncoming(response, {
      method: view.method,
      url: response.url || urlOf(input),
      mode: settings.responses,
      options: resolved,
      consumable: false,
    });
    return decrypted ?? response;
  };
}
