import type { JweAnswer } from './decision.js';
import { isJsonType } from './encryption-header.js';
import { fileFromPayload } from './file-payload.js';
import type { JweServer } from './jwe-server.js';
import { type OpenedBody, openBody } from './open-body.js';
import type { Opened } from './opened.js';
import { markReadToEnd } from './read-body.js';
import { type RefusalReporting, reportingOf, reportSealFailure } from './refusal.js';
import type { JweRequestInfo } from './request-info.js';

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
 * Reads and opens a Web `Request`'s body without building a new request (see `openBody`).
 */
export function openRequestBody(server: JweServer, request: Request): Promise<OpenedBody> {
  // Bun hands an empty body over as `null`; its `Content-Length: 0` still says a body was sent.
  return openBody(server, {
    header: (name) => request.headers.get(name) ?? undefined,
    body: request.body ?? undefined,
    readToEnd: () => markReadToEnd(request),
  });
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

/** A Web `Response` that carries the engine's decision, over the application's `response` when it keeps its body. */
export function writeAnswer(answer: JweAnswer, response?: Response): Response {
  if (answer.body === undefined && response !== undefined) {
    if (!answer.vary) return response;
    try {
      response.headers.append('vary', 'X-Encryption');
      return response;
    } catch {
      // Immutable headers (a response from fetch): copy it below.
    }
  }
  const headers = new Headers(response?.headers);
  for (const name of answer.remove) headers.delete(name);
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
  if (answer.vary) headers.append('vary', 'X-Encryption');
  if (answer.body === undefined && response !== undefined) {
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  const statusText = response !== undefined && answer.status === response.status ? response.statusText : '';
  return new Response(answer.body ?? null, { status: answer.status, statusText, headers });
}

/** The engine's decision for a handler's `Response`; its body is read only when it is to be sealed. */
export async function decideResponse(
  server: JweServer,
  response: Response,
  opened: Opened,
): Promise<JweAnswer> {
  const contentType = response.headers.get('content-type');
  const seals = opened.responseKey !== undefined && response.body !== null && isJsonType(contentType);
  const body = seals ? new Uint8Array(await response.arrayBuffer()) : undefined;
  return server.answer(opened, response.status, contentType, body);
}

/**
 * Seals a JSON answer under the request's key and kid (`X-Encryption: JWE`). Other answers
 * (files, text, no body) leave as they are. If sealing fails the answer is a generic 500, never
 * the plaintext, and the failure (`ERR_JWE_ENCRYPT_FAILED`) goes to `reporting`: by default one
 * line on stderr with its stack.
 */
export async function sealResponse(
  server: JweServer,
  response: Response,
  opened: Opened,
  reporting: RefusalReporting = {},
): Promise<Response> {
  const answer = await decideResponse(server, response, opened);
  if (answer.failure) reportSealFailure(answer, reportingOf(reporting));
  return writeAnswer(answer, response);
}

/**
 * The JSON answer for an error: `{"error": {"type", "code", "message"}}` with its status, sealed
 * when the request authenticated. A refused body closes the connection, so an unread upload is
 * not drained from the client. The refusal is yours to report; if its sealing fails, that failure
 * goes to `reporting` as in `sealResponse`.
 */
export async function errorResponse(
  server: JweServer,
  error: unknown,
  opened?: Opened,
  reporting: RefusalReporting = {},
): Promise<Response> {
  const answer = await server.refuse(error, opened);
  if (answer.failure) reportSealFailure(answer, reportingOf(reporting));
  return writeAnswer(answer);
}

/**
 * The file of a decrypted `{"file": "<base64>"}` body, held in memory (for files up to the
 * `limit`; stream larger ones to disk with `receiveEncryptedFile` from `/node`).
 */
export async function readFilePayload(request: Request, field = 'file'): Promise<Uint8Array> {
  return fileFromPayload(new Uint8Array(await request.arrayBuffer()), field, false);
}
