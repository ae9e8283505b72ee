import {
  type JweCallOptions,
  JweRequestError,
  JweResponseError,
  type ResponseMode,
  type UploadProgressListener,
} from '@jwe-transport/client-core';
import {
  canStream,
  createJweClient,
  isJsonMediaType,
  isMultipartForm,
  type JweClient,
  type SealableBody,
  type SealedBody,
  saysJwe,
  sendSealedStream,
} from '@jwe-transport/client-core/adapter';
import { isJweError } from '@jwe-transport/codec';
import { attemptHeaders, DEFERRED_HEADER, type Plaintext, placeholderFor } from './deferred-upload.js';
import { type HookArguments, hookArguments, type KyOptionsView } from './hook-arguments.js';
import { checkKyOptions, type JwePluginOptions } from './options.js';
import { jsonSealer } from './sealed-json.js';

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
  /**
   * Opens responses as they arrive, before ky reads them: no hook has to clone them. It sends
   * through `jwe({ fetch })` when given, else the global fetch; set your own fetch there.
   */
  fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  hooks: {
    /** ky 2.x only (ky 1.x ignores it): keeps large files out of the `Request` ky builds. */
    init: ((...args: unknown[]) => void)[];
    beforeRequest: JweKyHook<Request | Response | undefined>[];
    beforeRetry: JweKyHook<Request | undefined>[];
  };
}

/** Where the init hook parks a form whose file is too large to hand to `new Request()`. */
const DEFERRED_FORM = Symbol('jwe-transport deferred form');

/** ky's per-call `context` object: one per call, the same object on every attempt of it. */
function callKey(options: KyOptionsView): object | undefined {
  const { context } = options;
  return typeof context === 'object' && context !== null ? context : undefined;
}

/** ky's `onUploadProgress` callback, as ky 1.x and 2.x both call it. */
type KyProgress = (
  progress: { percent: number; transferredBytes: number; totalBytes: number },
  chunk: Uint8Array,
) => void;

/**
 * The caller's `onUploadProgress`, fed with the file's plaintext bytes as they are sealed. The file
 * is then sealed inside ky's fetch call (as large files are) and ky's request carries no body, so
 * ky's own counting, which would see the envelope, never runs.
 */
function progressOf(options: KyOptionsView): UploadProgressListener | undefined {
  const callback = (options as { onUploadProgress?: unknown }).onUploadProgress;
  if (typeof callback !== 'function') return undefined;
  return ({ loaded, total }, chunk) =>
    (callback as KyProgress)(
      { percent: total ? loaded / total : 0, transferredBytes: loaded, totalBytes: total ?? loaded },
      chunk,
    );
}

function callOf(options: KyOptionsView): JweCallOptions | undefined {
  return (options.context as { jwe?: JweCallOptions } | undefined)?.jwe;
}

function deferredForm(options: KyOptionsView): FormData | undefined {
  return (options.context as { [DEFERRED_FORM]?: FormData } | undefined)?.[DEFERRED_FORM];
}

/**
 * The body to seal. ky's `options.body` is the caller's own object (a FormData whose files stay
 * on disk, or the JSON text); it is used while the request still carries it, never after a hook
 * or a retry replaced the body with an envelope.
 */
async function bodyToSeal({ request, options }: HookArguments): Promise<SealableBody> {
  const parked = deferredForm(options);
  if (parked) return parked;
  const contentType = request.headers.get('content-type');
  const original = options.body;
  if (typeof FormData !== 'undefined' && original instanceof FormData && isMultipartForm(contentType)) {
    return original;
  }
  if (typeof original === 'string' && isJsonMediaType(contentType)) return original;
  // A Blob (a file on disk, say) is sealed from the Blob itself: large ones stream, never read whole.
  if (typeof Blob !== 'undefined' && original instanceof Blob && !saysJwe(request.headers)) return original;
  // Bytes too: reading them back from the request would run ky's own upload progress over them.
  if ((original instanceof ArrayBuffer || ArrayBuffer.isView(original)) && !saysJwe(request.headers)) {
    return original as ArrayBuffer | ArrayBufferView<ArrayBuffer>;
  }
  return request.body === null ? null : new Uint8Array(await request.arrayBuffer());
}

/**
 * Locks a request body that will never be sent. ky 2.x cancels leftover request bodies when a
 * call ends, and on Node 24 cancelling an unread FormData body makes undici's producer enqueue
 * into a closed stream: an unhandled rejection. A locked body makes that cancel a caught no-op.
 */
function retireBody(request: Request): void {
  if (request.body && !request.body.locked) request.body.getReader();
}

function isLargeSingleFile(form: FormData, field: string, threshold: number): boolean {
  let entries = 0;
  form.forEach(() => {
    entries++;
  });
  const file = form.get(field);
  return entries === 1 && file instanceof Blob && file.size > threshold;
}

/**
 * ky options that seal request bodies and open responses, for ky 1.x and 2.x:
 * `const api = ky.create({ prefixUrl }).extend(jwe({ key, kid }))`.
 *
 * Add it last: ky 1.x skips the `beforeRequest` hooks after one that returns a new request.
 */
export function jwe(options: JwePluginOptions): JweKyOptions {
  checkKyOptions(options);
  const client: JweClient = createJweClient(options);
  const sealer = jsonSealer(client, options.stringifyJson);
  // Bodiless requests handed to ky for a streamed upload, each with the plaintext its attempt is
  // sealed from when ky calls fetch with it (the same object ky got back from the hook).
  const deferredRequests = new WeakMap<Request, Plaintext>();
  // The caller's body of each call this plugin sealed, by the call's ky context. A retry (ky 1.x
  // runs beforeRequest again, ky 2.x runs beforeRetry) is known by this private record, never by
  // what its body looks like, and is sealed afresh from the plaintext under a new IV.
  const plaintexts = new WeakMap<object, Plaintext>();
  const remember = (kyOptions: KyOptionsView, plaintext: Plaintext) => {
    const key = callKey(kyOptions);
    if (key !== undefined) plaintexts.set(key, plaintext);
  };
  const recall = (kyOptions: KyOptionsView) => {
    const key = callKey(kyOptions);
    return key === undefined ? undefined : plaintexts.get(key);
  };
  // What beforeRequest decided for the request ky then hands to fetch (the same object).
  const plans = new WeakMap<Request, { sealed: boolean; mode: ResponseMode }>();
  const send: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const kyFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    if (input instanceof Request && input.headers.has(DEFERRED_HEADER)) return sendDeferred(input, init);
    const response = await send(input, init);
    const request = input instanceof Request ? input : undefined;
    const url = request?.url ?? String(input);
    const plan = request ? plans.get(request) : undefined;
    return client.openResponse(response, {
      method: request?.method ?? init?.method ?? 'GET',
      url: response.url || url,
      sealed: plan?.sealed ?? (request !== undefined && saysJwe(request.headers)),
      mode: plan?.mode ?? client.responseMode(url),
    });
  };

  /** Records how to read the answer to `request`, which ky passes on to fetch as it is. */
  const planned = (request: Request, sealed: boolean, call: JweCallOptions | undefined) => {
    plans.set(request, { sealed, mode: client.responseMode(request.url, call) });
    return request;
  };

  /** A later `fetch` option would bypass the response side: refuse to send rather than fail open. */
  const assertOwnFetch = (kyOptions: KyOptionsView) => {
    if (kyOptions.fetch !== undefined && kyOptions.fetch !== kyFetch) {
      throw new TypeError(
        'jwe(): ky\'s "fetch" option was replaced after jwe() was added, so responses would not be ' +
          'opened. Pass your fetch to jwe({ fetch }) instead, or extend with jwe() last.',
      );
    }
  };

  /*
   * On Node 22+ constructing a `Request` whose FormData holds a file reads the whole file into
   * memory, and ky builds one for every call. ky 2.x runs `init` hooks first: a form that is one
   * large file is taken out of the options and parked in the per-call context for
   * `beforeRequest`, which streams it.
   */
  const init = (...args: unknown[]): void => {
    const kyOptions = args[0] as Record<string, unknown>;
    // ky 2.x hides `fetch` from later hooks; this is where a replaced one can still be seen.
    assertOwnFetch(kyOptions);
    const form = kyOptions.body;
    if (!canStream || typeof FormData === 'undefined' || !(form instanceof FormData)) return;
    const call = callOf(kyOptions);
    if (call === false || call?.request === false) return;
    if (!isLargeSingleFile(form, client.options.fileField, client.options.streamThreshold)) return;
    kyOptions.context = { ...(kyOptions.context as object | undefined), [DEFERRED_FORM]: form };
    delete kyOptions.body;
  };

  /** Hands ky a bodiless stand-in for `request`, whose file `sendDeferred` seals per attempt. */
  const defer = (request: Request, plaintext: Plaintext, call: JweCallOptions | undefined) => {
    retireBody(request);
    const placeholder = placeholderFor(request);
    deferredRequests.set(placeholder, plaintext);
    return planned(placeholder, true, call);
  };

  /**
   * One attempt of a streamed upload, inside ky's fetch call (so under ky's timeout and signal):
   * the file is sealed afresh from the caller's source (new IV) and streamed as it is read.
   */
  async function sendDeferred(request: Request, init: RequestInit | undefined): Promise<Response> {
    const plaintext = deferredRequests.get(request);
    if (plaintext?.deferred === undefined) {
      throw new TypeError(
        'jwe(): a request jwe() prepared for a streamed upload was replaced by a later hook before ky ' +
          'sent it, so its file would be lost. Extend with jwe() last, or return no new request for it.',
      );
    }
    deferredRequests.delete(request);
    const sealed = await client.seal(plaintext.body, attemptHeaders(request, plaintext), {
      onProgress: plaintext.deferred.progress,
      text: true,
    });
    const target = { ...init, method: request.method, signal: request.signal };
    let response: Response;
    if (sealed.kind === 'streamed') response = await sendSealedStream(send, request.url, target, sealed);
    else if (sealed.kind === 'buffered') {
      response = await send(request.url, { ...target, headers: sealed.headers, body: sealed.body });
    } else throw new TypeError('jwe(): a streamed upload lost its body between attempts.');
    return client.openResponse(response, {
      method: request.method,
      url: response.url || request.url,
      sealed: true,
      mode: plans.get(request)?.mode ?? client.responseMode(request.url),
    });
  }

  const beforeRequest: JweKyHook<Request | Response | undefined> = async (...args) => {
    const view = hookArguments(args);
    const { request, options: kyOptions } = view;
    assertOwnFetch(kyOptions);
    const call = callOf(kyOptions);
    const claimed = sealer?.claim(kyOptions.body);
    if (claimed !== undefined) {
      const plan = await client.plan(request, call);
      if (!plan.seal) {
        const plain = new Request(request, { body: claimed });
        return planned(plain, false, call);
      }
      remember(kyOptions, { body: claimed, contentType: request.headers.get('content-type') });
      // The body is already the envelope: only the headers change, and a Request's headers may.
      request.headers.set('x-encryption', 'JWE');
      planned(request, true, call);
      return undefined;
    }
    const parked = deferredForm(kyOptions);
    const plan = await client.plan(request, call);
    if (!plan.seal) {
      if (parked) return planned(new Request(request, { body: parked }), false, call);
      planned(request, false, call);
      return undefined;
    }
    // ky 1.x runs this hook again on a retry, with the request it sent: seal the plaintext anew.
    const earlier = recall(kyOptions);
    if (earlier?.deferred) return defer(request, earlier, call);
    const onProgress = progressOf(kyOptions);
    let plaintext: Plaintext;
    let sealed: SealedBody;
    try {
      // Where a file with a listener is streamed, this sealing is only a look at what kind of body
      // it makes (the attempt is sealed again when sent): it reports to a silent listener.
      // A file in memory is sealed to text: ky sends through fetch, and Node 20's cannot resend bytes.
      const progress = { onProgress: canStream && onProgress ? () => {} : onProgress, text: true };
      if (earlier === undefined) {
        plaintext = { body: await bodyToSeal(view), contentType: request.headers.get('content-type') };
        remember(kyOptions, plaintext);
        sealed = await client.seal(plaintext.body, request.headers, progress);
      } else {
        plaintext = earlier;
        retireBody(request);
        sealed = await client.seal(earlier.body, attemptHeaders(request, earlier), progress);
      }
    } catch (error) {
      retireBody(request);
      throw error;
    }
    if (sealed.kind === 'empty') {
      planned(request, false, call);
      return undefined;
    }
    if (sealed.kind === 'buffered') {
      return planned(new Request(request, { headers: sealed.headers, body: sealed.body }), true, call);
    }
    // A streamed body cannot go into ky's request: ky clones every request it may retry, and
    // cloning a stream buffers all of it. Nothing of this envelope was read yet (its source is
    // pulled only when sent): drop it, and seal each attempt afresh inside ky's fetch call.
    await sealed.body.cancel();
    plaintext.deferred = { progress: onProgress };
    return defer(request, plaintext, call);
  };

  const beforeRetry: JweKyHook<Request | undefined> = async (...args) => {
    const state = args[0] as { request: Request; options?: KyOptionsView; error?: unknown };
    const { request, error } = state;
    // Neither a failed decryption nor a request we could not seal gets better by sending it again.
    if (error instanceof JweResponseError || error instanceof JweRequestError || isJweError(error))
      throw error;
    if (callOf(state.options ?? {}) === false) return undefined;
    // ky 2.x resends its clone of the first attempt; seal the caller's plaintext again instead.
    const plaintext = recall(state.options ?? {});
    if (plaintext === undefined) return undefined;
    if (plaintext.deferred) return defer(request, plaintext, callOf(state.options ?? {}));
    const sealed = await client.seal(plaintext.body, attemptHeaders(request, plaintext), { text: true });
    if (sealed.kind !== 'buffered') throw error;
    retireBody(request);
    return planned(
      new Request(request, { headers: sealed.headers, body: sealed.body }),
      true,
      callOf(state.options ?? {}),
    );
  };

  return {
    ...(sealer
      ? { stringifyJson: sealer.stringifyJson }
      : options.stringifyJson
        ? { stringifyJson: options.stringifyJson }
        : {}),
    fetch: kyFetch,
    hooks: {
      init: [init],
      beforeRequest: [beforeRequest],
      beforeRetry: [beforeRetry],
    },
  };
}
