import { createJweClient, type JweClient } from './client.js';
import { responseWith } from './decrypted-response.js';
import { describeTarget } from './describe.js';
import type { JweCallOptions, JweClientOptions } from './options.js';
import type { UploadProgressListener } from './progress.js';
import { readBody } from './read-body.js';
import type { SealableBody, SealedBody } from './seal-body.js';
import { connectionErrorCode, interrupted, TrackedUpload } from './upload.js';

/** `RequestInit` plus this call's switch: `jwe: false` sends and reads the call untouched. */
export interface JweRequestInit extends RequestInit {
  jwe?: JweCallOptions;
  /**
   * Upload progress of a file body, in plaintext bytes of the file (see `UploadProgress`). The file
   * is then sealed as a stream whatever its size, so the call follows no redirect. JSON bodies
   * report nothing. There is no download progress: an answer is opened only once its tag verifies.
   */
  onUploadProgress?: UploadProgressListener;
}

/** A fetch that seals requests and opens responses. */
export type JweFetch = (input: string | URL | Request, init?: JweRequestInit) => Promise<Response>;

/** The fetch this wrapper calls: the global fetch, undici's, or any compatible one. */
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

/** The body of a `Request`, in a form the sealer can judge (a parsed form, or bytes). */
async function requestBody(request: Request, headers: Headers): Promise<SealableBody> {
  if (request.body === null) return null;
  if ((headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return request.formData();
  }
  return new Uint8Array(await request.arrayBuffer());
}

/**
 * Options for a streamed body. A stream can be sent once only, so it cannot follow a redirect
 * that repeats the body; `redirect: 'error'` with no window also lets undici send the stream
 * without keeping a copy of every chunk for such a repeat (bounded memory for large files).
 */
function streamedInit(init: RequestInit): RequestInit {
  const result = { ...init, duplex: 'half' } as RequestInit;
  if (init.redirect === undefined) {
    result.redirect = 'error';
    (result as { window?: null }).window = null;
  }
  return result;
}

/**
 * Sends a sealed stream through `send` (any fetch) with `duplex: 'half'` and backpressure. A
 * server that answers an upload with an error before reading all of it (401, 413) has no use for
 * the rest: its answer is read, then the upload stops. A connection cut before any answer is a
 * `JweUploadError` that says how far the upload got.
 */
export async function sendSealedStream(
  send: FetchImplementation,
  url: string,
  init: RequestInit,
  sealed: Extract<SealedBody, { kind: 'streamed' }>,
): Promise<Response> {
  const upload = new TrackedUpload(sealed.body);
  let response: Response;
  try {
    response = await send(url, streamedInit({ ...init, headers: sealed.headers, body: upload.body }));
  } catch (error) {
    const code = connectionErrorCode(error);
    if (code === undefined || upload.sent === 0) throw error;
    throw interrupted(upload, code, describeTarget(init.method ?? 'POST', url), error);
  }
  if (upload.finished || response.status < 400) return response;
  const answer = await readBody(response);
  upload.stop();
  const copy = responseWith(answer, response, new Headers(response.headers));
  Object.defineProperties(copy, { url: { value: response.url }, redirected: { value: response.redirected } });
  return copy;
}

function isClient(value: JweClientOptions | JweClient): value is JweClient {
  return typeof (value as JweClient).openResponse === 'function';
}

/**
 * A `fetch` that seals request bodies and opens responses: `const jweFetch = createJweFetch({ key, kid })`.
 * Pass `fetchImpl` to wrap another fetch (undici's, an instrumented one); it is called as
 * `fetchImpl(url, init)` when the body was sealed, so it needs no `Request` class of its own.
 */
export function createJweFetch(
  options: JweClientOptions | JweClient,
  fetchImpl?: FetchImplementation,
): JweFetch {
  const client = isClient(options) ? options : createJweClient(options);
  const send: FetchImplementation = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  return async (input, init = {}) => {
    const { jwe: call, onUploadProgress, ...requestInit } = init;
    const source = input instanceof Request ? input : undefined;
    const url = source ? source.url : String(input);
    const method = (requestInit.method ?? source?.method ?? 'GET').toUpperCase();
    const headers = new Headers(requestInit.headers ?? source?.headers);
    const plan = await client.plan({ url, method, headers }, call);
    let sealed = false;
    let response: Response | undefined;
    if (plan.seal) {
      const body =
        requestInit.body !== undefined && requestInit.body !== null
          ? requestInit.body
          : source
            ? await requestBody(source, headers)
            : null;
      const out = await client.seal(body, headers, { onProgress: onUploadProgress, text: true });
      if (out.kind !== 'empty') {
        sealed = true;
        const sendInit: RequestInit = {
          ...(source ? initFromRequest(source) : {}),
          ...requestInit,
          method,
        };
        response =
          out.kind === 'streamed'
            ? await sendSealedStream(send, url, sendInit, out)
            : await send(url, { ...sendInit, headers: out.headers, body: out.body });
      }
    }
    response ??= await send(input, requestInit);
    return client.openResponse(response, { method, url, sealed, mode: plan.responses });
  };
}
