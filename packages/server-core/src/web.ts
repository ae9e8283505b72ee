import { carriesBody, isEncryptedHeader, isJsonType } from './encryption-header.js';
import { errorBody, statusOf } from './error-body.js';
import { toHttpError } from './errors.js';
import { fileFromPayload } from './file-payload.js';
import type { JweServer, Opened, OpenedEnvelope } from './jwe-server.js';
import { readRequestBody } from './read-body.js';
import { noteKid, openedOfError, rememberOpened } from './refusal.js';
import type { JweRequestInfo } from './request-info.js';
import type { ParsedPlaintext } from './strict-json.js';

/** An opened Web request: the request a handler should read, and the state its answer needs. */
export interface WebExchange extends Opened {
  /** For an encrypted request, a copy whose body is the decrypted JSON; otherwise the request itself. */
  readonly request: Request;
  /** The decrypted body, parsed (encrypted requests only). */
  readonly body?: unknown;
}

const infoByRequest = new WeakMap<Request, JweRequestInfo>();

/** What `withJwe` or the Hono middleware did with this request (`undefined` if neither saw it). */
export function jweInfo(request: Request): JweRequestInfo | undefined {
  return infoByRequest.get(request);
}

/** Headers for the decrypted copy: the envelope's own length and encryption marker no longer apply. */
function plaintextHeaders(request: Request, length: number): Headers {
  const headers = new Headers(request.headers);
  headers.delete('x-encryption');
  headers.delete('content-encoding');
  headers.set('content-length', String(length));
  headers.set('content-type', 'application/json');
  return headers;
}

/**
 * An opened request body: for an encrypted request, the plaintext, its text and its parsed JSON;
 * for a plain JSON body, its bytes, text and value (`plain: true`), read with the same parser.
 */
export interface OpenedBody extends Opened {
  readonly plaintext?: Uint8Array;
  readonly text?: string;
  readonly body?: unknown;
  readonly plain?: boolean;
}

/** Whether a plain request carries a JSON body this server parses (any other type is left alone). */
export function isPlainJson(
  contentType: string | null | undefined,
  contentLength: string | null | undefined,
) {
  return isJsonType(contentType) && contentLength !== '0';
}

/**
 * Reads and opens a Web `Request`'s body without building a new request: an `X-Encryption: JWE`
 * body is decrypted, checked strictly and parsed; a plain request is left unread. Failures are
 * `JweHttpError`s (sealed by `errorResponse` once the envelope authenticated).
 */
export async function openRequestBody(server: JweServer, request: Request): Promise<OpenedBody> {
  const encrypted = isEncryptedHeader(request.headers.get('x-encryption'));
  // Bun hands an empty body over as `null`; its `Content-Length: 0` still says a body was sent.
  const sent =
    request.body !== null ||
    request.headers.has('content-length') ||
    request.headers.has('transfer-encoding');
  if (encrypted && sent) {
    const opened = await server.openEnvelope(await readRequestBody(request, server.options.limit));
    const { text, value } = parseOpenedPlaintext(server, opened);
    return { ...opened, text, body: value };
  }
  const opened = await server.openPlain(sent);
  if (!sent || !isPlainJson(request.headers.get('content-type'), request.headers.get('content-length'))) {
    return opened;
  }
  return openPlainJson(server, opened, await readRequestBody(request, server.options.limit));
}

/**
 * A plain JSON body, parsed once with the rules decrypted ones follow: a malformed body is a
 * 400 `entity.parse.failed` here, not a `SyntaxError` in the handler. An empty one is left as no body.
 */
export function openPlainJson(server: JweServer, opened: Opened, bytes: Uint8Array): OpenedBody {
  if (bytes.length === 0) return opened;
  try {
    const { text, value } = server.parsePlainJson(bytes);
    return { ...opened, plaintext: bytes, text, body: value, plain: true };
  } catch (error) {
    if (opened.responseKey) rememberOpened(error, opened);
    throw error;
  }
}

/** Parses an authenticated body; a failure is remembered so that `errorResponse` seals its answer. */
export function parseOpenedJson(server: JweServer, opened: OpenedEnvelope): unknown {
  return parseOpenedPlaintext(server, opened).value;
}

/** `parseOpenedJson` that also gives the decoded text. */
export function parseOpenedPlaintext(server: JweServer, opened: OpenedEnvelope): ParsedPlaintext {
  try {
    return server.parsePlaintext(opened.plaintext);
  } catch (error) {
    // Authenticated: from here on even the error answers go out sealed.
    rememberOpened(error, opened);
    noteKid(error, opened.info.kid);
    throw error;
  }
}

/**
 * Opens a Web `Request`: decrypts an `X-Encryption: JWE` body (checked strictly and parsed
 * before any handler runs) or passes a plain request through. Failures are `JweHttpError`s.
 */
export async function openRequest(server: JweServer, request: Request): Promise<WebExchange> {
  const opened = await openRequestBody(server, request);
  if (opened.plaintext === undefined) {
    infoByRequest.set(request, opened.info);
    return { info: opened.info, responseKey: opened.responseKey, request };
  }
  const plaintext = new Request(request.url, {
    method: request.method,
    headers: plaintextHeaders(request, opened.plaintext.length),
    body: opened.plaintext as Uint8Array<ArrayBuffer>,
    signal: request.signal,
  });
  // The body was parsed once already: `json()` hands that value on rather than parse it again.
  const parsed = opened.body;
  Object.defineProperty(plaintext, 'json', { value: async () => parsed, configurable: true });
  infoByRequest.set(plaintext, opened.info);
  return { info: opened.info, responseKey: opened.responseKey, request: plaintext, body: opened.body };
}

/** The answer when sealing fails: never the plaintext. The one copy every adapter writes. */
export const ENCRYPT_FAILED_BODY = JSON.stringify({
  error: {
    type: 'jwe.encrypt.failed',
    code: 'ERR_JWE_ENCRYPT_FAILED',
    message: 'The server could not encrypt its answer.',
  },
});

function withVary(response: Response, server: JweServer): Response {
  if (!server.variesByEncryption) return response;
  try {
    response.headers.append('Vary', 'X-Encryption');
    return response;
  } catch {
    // Immutable headers (a response from fetch): copy it.
    const copy = new Response(response.body, response);
    copy.headers.append('Vary', 'X-Encryption');
    return copy;
  }
}

/**
 * Seals a JSON answer under the request's key and kid (`X-Encryption: JWE`). Other answers
 * (files, text, no body) leave as they are. If sealing fails the answer is a generic 500, never
 * the plaintext.
 */
export async function sealResponse(server: JweServer, response: Response, opened: Opened): Promise<Response> {
  const key = opened.responseKey;
  if (
    !key ||
    response.body === null ||
    !carriesBody(response.status) ||
    !isJsonType(response.headers.get('content-type'))
  ) {
    return withVary(response, server);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('etag');
  headers.set('content-type', 'application/json; charset=utf-8');
  if (server.variesByEncryption) headers.append('Vary', 'X-Encryption');
  let envelope: string;
  try {
    envelope = await server.seal(new Uint8Array(await response.arrayBuffer()), key);
  } catch {
    headers.delete('x-encryption');
    return new Response(ENCRYPT_FAILED_BODY, { status: 500, headers });
  }
  headers.set('x-encryption', 'JWE');
  return new Response(envelope, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The JSON answer for an error: `{"error": {"type", "code", "message"}}` with its status, sealed
 * when the request authenticated. A refused body closes the connection, so an unread upload is
 * not drained from the client.
 */
export async function errorResponse(server: JweServer, error: unknown, opened?: Opened): Promise<Response> {
  opened ??= openedOfError(error);
  const httpError = toHttpError(error);
  const status = statusOf(httpError);
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
  if (status === 413 || status === 415) headers.set('connection', 'close');
  const response = new Response(JSON.stringify(errorBody(httpError)), { status, headers });
  return opened ? sealResponse(server, response, opened) : withVary(response, server);
}

/**
 * The file of a decrypted `{"file": "<base64>"}` body, held in memory (for files up to the
 * `limit`; stream larger ones to disk with `receiveEncryptedFile` from `/node`).
 */
export async function readFilePayload(request: Request, field = 'file'): Promise<Uint8Array> {
  return fileFromPayload(new Uint8Array(await request.arrayBuffer()), field, false);
}
