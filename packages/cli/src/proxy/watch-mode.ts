import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isJweResponseError } from '@jwe-transport/client-core';
import type { JweClient } from '@jwe-transport/client-core/adapter';
import { isJweHttpError, type JweServer } from '@jwe-transport/server-core';
import { type Agent, request as undiciRequest } from 'undici';
import { answerHeaders, writeRefusal } from './answer.js';
import { BodyCapture } from './capture.js';
import { errorCodeOf } from './error-code.js';
import type { Exchange, ExchangeSide } from './exchange.js';
import { viewOf } from './opened-view.js';
import { sameOriginRedirect } from './redirect.js';
import { forwardedHeaders, upstreamFailure } from './upstream.js';

export interface WatchContext {
  /** Opens copies of request envelopes, as a service would (server-core). */
  server: JweServer;
  /** Opens copies of answers, as the app's client would (client-core). */
  client: JweClient;
  agent: Agent;
  upstream: URL;
}

/** A pass-through stream that copies each chunk into `capture`; the bytes themselves are untouched. */
function copyInto(capture: BodyCapture): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      capture.add(chunk);
      done(null, chunk);
    },
  });
}

const saysJwe = (pairs: readonly [string, string][]) =>
  pairs.some(([name, value]) => name.toLowerCase() === 'x-encryption' && /^jwe$/i.test(value.trim()));

/** A JSON object whose first members name an envelope's parts (kid, protected and iv come first). */
function looksLikeEnvelope(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('utf8');
  return /^\s*\{/.test(head) && /"(iv|ciphertext)"\s*:/.test(head);
}

function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) pairs.push([name, one]);
  }
  return pairs;
}

/**
 * Watching mode: the app already seals, so its bytes go to the upstream and back untouched and
 * unbuffered; copies of them (up to the capture limit) are opened on the side once the exchange
 * is over, so opening never delays or changes the traffic.
 */
export async function watchExchange(
  context: WatchContext,
  request: IncomingMessage,
  response: ServerResponse,
  exchange: Exchange,
  signal: AbortSignal,
): Promise<void> {
  const { request: sent, response: got } = exchange;
  // Node has already answered `Expect: 100-continue` to the app; the upstream is sent the body at once.
  sent.headers = forwardedHeaders(request.rawHeaders, new Set(['expect']));
  const wireOut = new BodyCapture();
  const wireIn = new BodyCapture();
  const bodied =
    request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
  try {
    const answer = await undiciRequest(new URL(exchange.path, context.upstream), {
      method: exchange.method as 'GET',
      headers: sent.headers.flat(),
      body: bodied ? request.pipe(copyInto(wireOut)) : null,
      dispatcher: context.agent,
      signal,
    });
    exchange.status = answer.statusCode;
    got.headers = headerPairs(answer.headers);
    const redirect = sameOriginRedirect(
      { status: answer.statusCode, headers: new Headers(got.headers) },
      context.upstream,
      request.headers.host!,
      false,
    );
    const pairs = answerHeaders(got.headers).map(([name, value]): [string, string] =>
      name.toLowerCase() === 'location' && 'location' in redirect && redirect.location !== undefined
        ? [name, redirect.location]
        : [name, value],
    );
    response.writeHead(answer.statusCode, pairs.flat());
    await pipeline(answer.body, copyInto(wireIn), response);
  } catch (error) {
    const failure =
      request.destroyed && !request.complete
        ? {
            status: 499,
            code: 'ERR_PROXY_CLIENT_GONE',
            message: 'The app closed the connection before its request ended.',
          }
        : upstreamFailure(error);
    exchange.status = failure.status;
    exchange.outcome = 'failed';
    exchange.code = failure.code;
    got.failure = { code: failure.code, message: failure.message };
    writeRefusal(response, failure);
    return;
  } finally {
    sent.wire = wireOut.size > 0 ? wireOut : undefined;
    got.wire = wireIn.size > 0 ? wireIn : got.wire;
  }
  await openRequestCopy(context, sent);
  await openAnswerCopy(context, exchange);
  if (sent.failure ?? got.failure) {
    exchange.outcome = 'failed';
    exchange.code = (sent.failure ?? got.failure)!.code;
  } else if ((exchange.status ?? 0) >= 400) {
    exchange.outcome = 'refused';
    exchange.code =
      errorCodeOf(got.opened?.kind === 'json' ? Buffer.from(got.opened.text) : got.wire?.bytes()) ??
      `HTTP_${exchange.status}`;
  } else if (sent.note ?? got.note) exchange.outcome = 'unopened';
  else exchange.outcome = sent.sealed || got.sealed ? 'opened' : 'plain';
}

async function openRequestCopy(context: WatchContext, sent: ExchangeSide): Promise<void> {
  const bytes = sent.wire?.bytes();
  const marked = saysJwe(sent.headers);
  if (sent.wire === undefined) return;
  if (bytes === undefined) {
    sent.sealed = marked;
    if (marked) sent.note = tooLarge(sent.wire.size);
    return;
  }
  if (!marked && !looksLikeEnvelope(bytes)) return;
  try {
    const opened = await context.server.openEnvelope(bytes);
    sent.sealed = true;
    sent.kid = opened.info.kid;
    sent.opened = await viewOf(opened.plaintext);
    // For an upload, the size people know is the file's, not its {"file": base64} wrapping.
    sent.plainSize = sent.opened.kind === 'file' ? sent.opened.size : opened.plaintext.length;
  } catch (error) {
    // Not an envelope after all, unless the app said it was.
    if (!marked && isJweHttpError(error) && error.code === 'ERR_JWE_INVALID') return;
    sent.sealed = true;
    sent.failure = {
      code: isJweHttpError(error) ? error.code : 'ERR_JWE_INVALID',
      message: (error as Error).message,
    };
  }
}

async function openAnswerCopy(context: WatchContext, exchange: Exchange): Promise<void> {
  const got = exchange.response;
  const headers = new Headers(got.headers);
  const head = { status: exchange.status ?? 0, headers };
  const call = {
    method: exchange.method,
    url: exchange.url,
    sealed: exchange.request.sealed,
    mode: 'auto' as const,
  };
  if (!context.client.needsBody(head, call)) return;
  const bytes = got.wire?.bytes() ?? new Uint8Array(0);
  if (got.wire !== undefined && !got.wire.complete) {
    got.note = tooLarge(got.wire.size);
    return;
  }
  try {
    const opened = await context.client.openBody(bytes, head, call);
    if (!opened.decrypted) return;
    got.sealed = true;
    got.kid = opened.info.kid;
    got.opened = await viewOf(opened.plaintext);
    got.plainSize = got.opened.kind === 'file' ? got.opened.size : opened.plaintext.length;
  } catch (error) {
    got.sealed = saysJwe(got.headers);
    got.failure = {
      code: isJweResponseError(error) ? error.code : 'ERR_JWE_INVALID',
      message: (error as Error).message,
    };
  }
}

function tooLarge(size: number): string {
  return `passed through untouched, not opened on the side: ${size} bytes is more than the proxy keeps a copy of`;
}
