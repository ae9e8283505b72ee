import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import {
  createJweClient,
  type JweClient,
  type JweClientOptions,
  type ResponseContext,
} from '@jwe-transport/client-core';
import type { Dispatcher } from 'undici';
import {
  type HeldResponse,
  type OpenedResponse,
  OpeningHandler,
  type ResponsePlan,
} from './opening-handler.js';
import { sealDispatchBody } from './request-body.js';
import { fromHeaders, toHeaders } from './request-headers.js';

export interface JweInterceptorOptions extends Omit<JweClientOptions, 'origins'> {
  /**
   * The origins whose requests are sealed and whose responses are opened, such as
   * `['https://api.example.com']`. Required: a global dispatcher sees every request the process
   * makes, and requests to any other origin pass through untouched.
   */
  origins: readonly (string | URL)[];
}

/** The request headers as a `Headers`, and the response headers back to undici's record. */
function recordOf(headers: Headers): IncomingHttpHeaders {
  const record: IncomingHttpHeaders = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}

function headersOf(record: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function originOf(origin: Dispatcher.DispatchOptions['origin']): string | undefined {
  if (origin === undefined || origin === null) return undefined;
  try {
    return new URL(String(origin)).origin;
  } catch {
    return undefined;
  }
}

/** Responses are judged and opened by the core; this only converts between undici's shapes. */
function responsePlan(client: JweClient, context: ResponseContext): ResponsePlan {
  return {
    hold: (status, headers) => client.needsBody({ status, headers: headersOf(headers) }, context),
    async open(held: HeldResponse): Promise<OpenedResponse> {
      const headers = headersOf(held.headers);
      const head = { status: held.status, statusText: held.statusText, headers, url: context.url ?? '' };
      const opened = await client.openBody(held.body, head, context);
      if (!opened.decrypted) return held;
      return { ...held, headers: recordOf(opened.headers), body: opened.plaintext };
    },
  };
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

async function dispatchSealed(
  client: JweClient,
  dispatch: Dispatcher.Dispatch,
  opts: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
  url: string,
): Promise<void> {
  const headers = toHeaders(opts.headers);
  const plan = await client.plan({ url, method: opts.method, headers });
  const context: ResponseContext = { method: opts.method, url, sealed: false, mode: plan.responses };
  if (!plan.seal) {
    dispatch(
      opts,
      plan.responses === 'never' ? handler : new OpeningHandler(handler, responsePlan(client, context)),
    );
    return;
  }
  const sealed = await sealDispatchBody(opts.body, headers, client);
  if (sealed.kind === 'empty') {
    dispatch(opts, new OpeningHandler(handler, responsePlan(client, context)));
    return;
  }
  context.sealed = true;
  const body =
    sealed.kind === 'buffered'
      ? sealed.body
      : Readable.fromWeb(sealed.body as import('node:stream/web').ReadableStream<Uint8Array>);
  dispatch(
    { ...opts, body, headers: fromHeaders(sealed.headers) },
    new OpeningHandler(handler, responsePlan(client, context)),
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
      const origin = originOf(opts.origin);
      if (origin === undefined || !origins.has(origin) || opts.upgrade || opts.method === 'CONNECT') {
        return dispatch(opts, handler);
      }
      dispatchSealed(client, dispatch, opts, handler, origin + opts.path).catch((error: unknown) => {
        handler.onResponseError?.(DETACHED, error instanceof Error ? error : new Error(String(error)));
      });
      return true;
    };
}
