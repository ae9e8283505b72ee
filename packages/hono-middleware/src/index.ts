/**
 * `@jwe-transport/hono-middleware`: Hono 4 middleware for JWE (dir + A128CBC-HS256) encrypted
 * request bodies and answers, on every runtime Hono runs on.
 * @packageDocumentation
 */
import {
  type JweRequestInfo,
  JweServer,
  type JweServerOptions,
  type RefusalReporting,
  sealResponse,
} from '@jwe-transport/server-core';
import { isJweHttpError, type OpenedBody } from '@jwe-transport/server-core/adapter';
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';
import { openHonoRequest, sealedByJson, sealJsonAnswers } from './fast-path.js';
import { refuse, reportingOf, stripReporting } from './refusal.js';
import { bodyReadLater } from './skip.js';

export {
  type ErrorBody,
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
  type JweLogger,
  type JweRequestInfo,
  type JweServerOptions,
  type KeysOption,
  type Refusal,
  type RejectListener,
  type ResponseEncryption,
  readFilePayload,
  type SizeLimit,
} from '@jwe-transport/server-core';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by `@jwe-transport/hono-middleware`: what it did with this request. */
    jwe: JweRequestInfo;
  }
}

/**
 * Options of `jwe()`: those of the server core (keys, limit, responses, strictJson, maxDepth, ...)
 * plus `logger`/`onReject`, told about every refusal the middleware answers.
 */
export interface JweHonoOptions extends JweServerOptions, RefusalReporting {}

/** Replaces the answer outright: Hono's setter would otherwise copy the old answer's headers (its length) onto it. */
function replaceResponse(c: Context, response: Response): void {
  c.res = undefined as unknown as Response;
  c.res = response;
}

/**
 * Hands the decrypted body to `c.req.json()`, `text()` and `arrayBuffer()` through Hono's body
 * cache. Cheaper than a new `Request`; `c.req.raw` keeps the envelope's request, already read.
 * Each reader Hono has finds its own key: a missing one is converted through a new `Response`.
 */
function serveFromCache(c: Context, plaintext: Uint8Array, text: string, body: unknown): void {
  const bytes = plaintext.buffer.slice(plaintext.byteOffset, plaintext.byteOffset + plaintext.byteLength);
  // The first key is the one Hono converts from for the other readers: the exact bytes.
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
  cache.arrayBuffer = Promise.resolve(bytes);
  // `c.req.json()` parses the `text` entry (older Hono 4 releases read `json`).
  cache.text = Promise.resolve(text);
  cache.json = Promise.resolve(body);
}

/**
 * `app.use(jwe({ keys: { 'kid-1': sharedKey } }))`: an `X-Encryption: JWE` body reaches handlers
 * decrypted (`await c.req.json()` is the plaintext, checked strictly), JSON answers to it leave
 * sealed under the same kid, errors included, and plain requests pass through.
 * `c.get('jwe')` says what happened.
 */
export function jwe(options: JweHonoOptions | JweServer): MiddlewareHandler {
  const server = options instanceof JweServer ? options : new JweServer(stripReporting(options));
  const reporting = reportingOf(options);
  return async (c, next) => {
    if (bodyReadLater(c)) return next();
    let exchange: OpenedBody;
    try {
      exchange = await openHonoRequest(server, c);
    } catch (error) {
      return refuse(server, reporting, error);
    }
    if (exchange.plaintext) serveFromCache(c, exchange.plaintext, exchange.text ?? '', exchange.body);
    c.set('jwe', exchange.info);
    if (exchange.responseKey) sealJsonAnswers(c, server, exchange.responseKey);
    await next();
    if (sealedByJson.has(c.res) && !c.error) return;
    // A JweHttpError thrown by a handler (reading an upload, say) answers as the middleware's own would.
    const response = isJweHttpError(c.error) ? await refuse(server, reporting, c.error, exchange) : c.res;
    if (sealedByJson.has(response)) return;
    replaceResponse(c, await sealResponse(server, response, exchange));
  };
}

/**
 * An `app.onError` handler that answers every error as `{"error": {"type", "code", "message"}}`
 * with its status (messages of 5xx hidden), logging 5xx to stderr. Use it so that route errors
 * look like the middleware's own; answers to encrypted requests are still sealed by `jwe()`.
 */
export function jweErrorHandler(
  options: { onError?: (error: unknown, c: Context) => void } & RefusalReporting = {},
): ErrorHandler {
  const server = new JweServer({ keys: () => undefined, responses: 'never' });
  const reporting = reportingOf(options);
  const report = options.onError ?? (options.logger ? undefined : (error: unknown) => console.error(error));
  return async (error, c) => {
    const response = await refuse(server, reporting, error);
    if (response.status >= 500) report?.(error, c);
    return response;
  };
}
