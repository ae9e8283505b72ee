import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import {
  createJweFetch,
  DECRYPTED_HEADER,
  type FetchImplementation,
  fileFromPath,
  isJweRequestError,
  isJweResponseError,
} from '@jwe-transport/client-core';
import type { JweClient } from '@jwe-transport/client-core/adapter';
import { isJweHttpError } from '@jwe-transport/server-core';
import { receiveMultipart } from '@jwe-transport/server-core/adapter/node';
import { type Agent, fetch as undiciFetch } from 'undici';
import type { Refusal } from './admission.js';
import { answerHeaders, writeAnswer, writeRefusal } from './answer.js';
import { BodyCapture, capturing } from './capture.js';
import { errorCodeOf } from './error-code.js';
import type { Exchange } from './exchange.js';
import { viewOf } from './opened-view.js';
import { sameOriginRedirect } from './redirect.js';
import { forwardedHeaders, upstreamFailure } from './upstream.js';

export interface SealContext {
  client: JweClient;
  agent: Agent;
  upstream: URL;
  /** Where multipart uploads are kept while they are sealed (a private folder is made inside). */
  spoolDir: () => Promise<string>;
}

/** The bodies a tool sends and the proxy reads whole before sealing: small ones (the client's stream threshold). */
function declaredLength(request: IncomingMessage): number | undefined {
  const value = request.headers['content-length'];
  return value === undefined || !/^\d+$/.test(value) ? undefined : Number(value);
}

function hasBody(request: IncomingMessage): boolean {
  const length = declaredLength(request);
  return (length !== undefined && length > 0) || request.headers['transfer-encoding'] !== undefined;
}

async function readAll(request: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function pairsOf(headers: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  headers.forEach((value, name) => {
    pairs.push([name, value]);
  });
  return pairs;
}

const isMultipart = (type: string | undefined) =>
  (type ?? '').toLowerCase().startsWith('multipart/form-data');

/**
 * Sealing mode: the tool's plain JSON, file or multipart upload is sealed by client-core's fetch
 * wrapper exactly as the library seals it, the answer is opened by the same wrapper (fail closed:
 * a plain 2xx to a sealed request is an error), and the plaintext goes back to the tool.
 */
export async function sealExchange(
  context: SealContext,
  request: IncomingMessage,
  response: ServerResponse,
  exchange: Exchange,
  signal: AbortSignal,
): Promise<void> {
  const { request: sent, response: got } = exchange;
  const cleanups: (() => Promise<unknown>)[] = [];
  const fail = (refusal: Refusal, outcome: Exchange['outcome'] = 'failed') => {
    exchange.status = refusal.status;
    exchange.outcome = outcome;
    exchange.code = refusal.code;
    got.failure = { code: refusal.code, message: refusal.message };
    if (!response.destroyed) {
      const body = writeRefusal(response, refusal);
      got.headers = [['content-type', 'application/json; charset=utf-8']];
      got.opened = { kind: 'json', text: body.toString('utf8') };
    }
  };
  try {
    if (/^jwe$/i.test(String(request.headers['x-encryption'] ?? ''))) {
      fail({
        status: 400,
        code: 'ERR_PROXY_ALREADY_SEALED',
        message:
          'This request is already sealed (X-Encryption: JWE). In sealing mode send plaintext; to watch an app that seals its own requests, run the proxy with --watch.',
      });
      return;
    }
    const headers = new Headers();
    const notForwarded = new Set(['content-length', 'accept-encoding', 'expect']);
    for (const [name, value] of forwardedHeaders(request.rawHeaders, notForwarded))
      headers.append(name, value);
    // Bodies come back as they are sealed: no compression to undo in between.
    headers.set('accept-encoding', 'identity');
    const plain = new BodyCapture();
    let body: BodyInit | undefined;
    if (hasBody(request)) {
      const type = request.headers['content-type'];
      if (isMultipart(type)) {
        // server-core reads the form (one file, to a private 0600 file, removed whatever happens);
        // client-core then seals it from disk, streamed above its threshold.
        const { file, fields } = await receiveMultipart(request, request.headers, {
          limit: Number.MAX_SAFE_INTEGER,
          fieldName: context.client.options.fileField,
          dest: await context.spoolDir(),
        });
        const path = file.path!;
        cleanups.push(() => rm(path, { force: true }));
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append(file.fieldname, await fileFromPath(path, { type: file.mimetype }), file.originalname);
        headers.delete('content-type');
        body = form;
        sent.plainSize = file.size;
        sent.openedType = file.mimetype;
        sent.opened = {
          kind: 'file',
          name: file.originalname,
          type: file.mimetype,
          size: file.size,
          sha256: await sha256OfFile(path),
        };
      } else {
        const length = declaredLength(request);
        if (length !== undefined && length <= context.client.options.streamThreshold) {
          const bytes = await readAll(request);
          plain.add(bytes);
          body = bytes as Uint8Array<ArrayBuffer>;
        } else {
          body = capturing(Readable.toWeb(request) as ReadableStream<Uint8Array>, plain);
        }
        sent.openedType = type;
      }
    }
    const wireOut = new BodyCapture();
    const wireIn = new BodyCapture();
    let upstreamHeaders: [string, string][] = [];
    // The sealed bytes pass through here on their way up, and the sealed answer on its way back.
    const send: FetchImplementation = async (input, init = {}) => {
      const outgoing = new Headers(init.headers);
      sent.headers = pairsOf(outgoing);
      let upBody = init.body;
      if (typeof upBody === 'string') wireOut.add(Buffer.from(upBody));
      else if (upBody instanceof Uint8Array) wireOut.add(upBody);
      const streamed = upBody instanceof ReadableStream;
      if (streamed) upBody = capturing(upBody as ReadableStream<Uint8Array>, wireOut);
      const answer = await undiciFetch(String(input), {
        ...(init as object),
        body: upBody as never,
        headers: outgoing as unknown as import('undici').HeadersInit,
        dispatcher: context.agent,
        // A stream cannot be sent twice: with 'error' and no window, undici keeps no copy of it
        // for a redirect (memory stays bounded); a redirect answer then fails the call.
        ...(streamed ? { redirect: 'error', window: null } : { redirect: 'manual' }),
        signal,
      } as import('undici').RequestInit);
      upstreamHeaders = pairsOf(answer.headers as unknown as Headers);
      const nullBody = answer.body === null || [101, 103, 204, 205, 304].includes(answer.status);
      return new Response(nullBody ? null : capturing(answer.body as ReadableStream<Uint8Array>, wireIn), {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers as unknown as Headers,
      });
    };
    const jweFetch = createJweFetch(context.client, send);
    let answer: Response;
    try {
      answer = await jweFetch(exchange.url, {
        method: exchange.method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
        signal,
        duplex: 'half',
      } as RequestInit);
    } finally {
      sent.wire = wireOut.size > 0 ? wireOut : undefined;
      sent.sealed = sent.headers.some(([name, value]) => name === 'x-encryption' && /^jwe$/i.test(value));
      if (sent.sealed) sent.kid = context.client.options.kid;
      if (plain.size > 0 || sent.opened === undefined) {
        sent.plainSize ??= plain.size;
        if (plain.complete && plain.size > 0) sent.opened = await viewOf(plain.bytes()!);
      }
    }
    exchange.status = answer.status;
    exchange.statusText = answer.statusText;
    got.headers = upstreamHeaders;
    const redirect = sameOriginRedirect(answer, context.upstream, request.headers.host!, sent.sealed);
    if ('refusal' in redirect) {
      fail(redirect.refusal);
      return;
    }
    const decryptedKid = answer.headers.get(DECRYPTED_HEADER);
    const drop = new Set(['content-length', 'content-encoding']);
    const pairs = answerHeaders(pairsOf(answer.headers), drop).map(([name, value]): [string, string] =>
      name.toLowerCase() === 'location' && redirect.location !== undefined
        ? [name, redirect.location]
        : [name, value],
    );
    const back = new BodyCapture();
    await writeAnswer(
      response,
      answer.status,
      answer.statusText,
      pairs,
      answer.body === null ? null : capturing(answer.body, back),
    );
    got.wire = wireIn.size > 0 || decryptedKid !== null ? wireIn : back;
    got.sealed = decryptedKid !== null;
    got.plainSize = back.size;
    got.openedType = answer.headers.get('content-type') ?? undefined;
    if (back.complete && back.size > 0) got.opened = await viewOf(back.bytes()!);
    if (decryptedKid !== null) got.kid = decryptedKid === 'true' ? undefined : decryptedKid;
    if (answer.status >= 400) {
      exchange.outcome = 'refused';
      exchange.code = errorCodeOf(back.complete ? back.bytes() : undefined) ?? `HTTP_${answer.status}`;
    } else exchange.outcome = sent.sealed || got.sealed ? 'opened' : 'plain';
  } catch (error) {
    if (isJweRequestError(error)) {
      // Refused before a byte left: a request configured for sealing never goes out plain.
      fail({ status: 400, code: error.code, message: error.message });
    } else if (isJweResponseError(error)) {
      fail({ status: 502, code: error.code, message: error.message });
    } else if (isJweHttpError(error)) {
      fail({ status: error.status, code: error.code, message: error.message });
    } else if (request.destroyed && !request.complete) {
      fail({
        status: 499,
        code: 'ERR_PROXY_CLIENT_GONE',
        message: 'The tool closed the connection before its request ended.',
      });
    } else if (response.headersSent) {
      fail(upstreamFailure(error));
    } else {
      const failure = upstreamFailure(error);
      const code = (error as { code?: unknown }).code;
      if (
        failure.code === 'ERR_PROXY_UPSTREAM_UNREACHABLE' &&
        typeof code === 'string' &&
        code.startsWith('ERR_JWE')
      ) {
        fail({ status: 502, code, message: (error as Error).message });
      } else fail(failure);
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
}
