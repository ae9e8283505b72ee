/**
 * `@jwe-transport/hono-middleware`: Hono 4 middleware for JWE (dir + A128CBC-HS256) encrypted
 * request bodies and answers, on every runtime Hono runs on.
 * @packageDocumentation
 */
import {
  isJweHttpError,
  type JweRequestInfo,
  JweServer,
  type JweServerOptions,
  type RefusalReporting,
} from '@jwe-transport/server-core';
import { type OpenedBody, reportingOf } from '@jwe-transport/server-core/adapter';
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';
import { openHonoRequest } from './open-request.js';
import { refuse } from './refuse.js';
import { sealAnswer } from './seal-answer.js';
import { sealedByJson, sealJsonAnswers } from './seal-json.js';
import { bodyReadLater } from './skip.js';

// Re-exported on purpose (the README says so): the error class and the types of the options,
// so that a Hono application needs no second import.
export {
  type ErrorBody,
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
  type JweLogger,
  type JweRequestInfo,
  type KeysOption,
  type Refusal,
  type RejectListener,
  type ResponseEncryption,
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
 * plus `logger`/`onReject`, told about every refusal the middleware answers (by default one
 * line on the console; `logger: false` turns it off).
 */
export interface JweHonoOptions extends JweServerOptions, RefusalReporting {}

/**
 * Hands the plaintext to `c.req.json()`, `text()`, `arrayBuffer()` and the rest through Hono's
 * body cache (`c.req.bodyCache`, which Hono's validator and `cloneRawRequest` use the same way).
 * A new `Request` carrying it would cost more than the rest of opening a small request on Node
 * (a transferable body stream and an abort signal each). `c.req.raw` stays the envelope's request.
 */
function serveFromCache(c: Context, opened: OpenedBody): void {
  const plaintext = opened.plaintext!;
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
  // The first entry is the one Hono converts from for readers it has no entry for: the exact bytes.
  cache.arrayBuffer = Promise.resolve(
    plaintext.buffer.slice(plaintext.byteOffset, plaintext.byteOffset + plaintext.byteLength),
  );
  cache.text = Promise.resolve(opened.text ?? new TextDecoder().decode(plaintext));
  cache.json = Promise.resolve(opened.body);
}

/** Replaces the answer outright: Hono's setter would otherwise copy the old answer's headers (its length) onto it. */
function replaceResponse(c: Context, response: Response): void {
  c.res = undefined as unknown as Response;
  c.res = response;
}

/**
 * `app.use(jwe({ keys: { 'kid-1': sharedKey } }))`: an `X-Encryption: JWE` body reaches handlers
 * decrypted (`await c.req.json()` is the plaintext, checked strictly), JSON answers to it leave
 * sealed under the same kid, errors included, and plain requests pass through.
 * `c.get('jwe')` says what happened.
 */
export function jwe(options: JweHonoOptions | JweServer): MiddlewareHandler {
  const server = options instanceof JweServer ? options : new JweServer(options);
  const reporting = options instanceof JweServer ? reportingOf({}) : reportingOf(options);
  return async (c, next) => {
    if (bodyReadLater(c)) return next();
    let exchange: OpenedBody;
    try {
      // The body is read once, by the server core.
      exchange = await openHonoRequest(server, c);
    } catch (error) {
      return refuse(server, reporting, c, error);
    }
    if (exchange.plaintext !== undefined) serveFromCache(c, exchange);
    c.set('jwe', exchange.info);
    if (exchange.responseKey) sealJsonAnswers(c, server, exchange);
    await next();
    if (sealedByJson.has(c.res) && !c.error) return;
    // A JweHttpError thrown by a handler (reading an upload, say) answers as the middleware's own would.
    const response = isJweHttpError(c.error) ? await refuse(server, reporting, c, c.error, exchange) : c.res;
    if (sealedByJson.has(response)) return;
    replaceResponse(c, await sealAnswer(server, reporting, c, response, exchange));
  };
}

/** Decides error answers only (it holds no key: answers to encrypted requests are sealed by `jwe()`). */
const refusals = new JweServer({ keys: () => undefined, responses: 'never' });

/**
 * An `app.onError` handler that answers every error as `{"error": {"type", "code", "message"}}`
 * with its status (messages of 5xx hidden), reporting each with the request's method and path
 * (by default one line on the console, the 5xx with its stack). Use it so that route errors look
 * like the middleware's own; answers to encrypted requests are still sealed by `jwe()`.
 */
export function jweErrorHandler(
  options: { onError?: (error: unknown, c: Context) => void } & RefusalReporting = {},
): ErrorHandler {
  const reporting = reportingOf(options);
  return async (error, c) => {
    // The request's state names its kid in the report; the answer is sealed by jwe(), not here.
    const info = c.get('jwe');
    const response = await refuse(refusals, reporting, c, error, info && { info, responseKey: undefined });
    if (response.status >= 500) {
      try {
        options.onError?.(error, c);
      } catch {
        // A failing listener must not cost the client its answer.
      }
    }
    return response;
  };
}
