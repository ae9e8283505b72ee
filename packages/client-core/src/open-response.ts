import {
  decryptDetailed,
  type Envelope,
  isJweError,
  JweError,
  type KeyInput,
  type KeyResolver,
} from '@jwe-transport/codec';
import { traceKid, traceOpen } from '@jwe-transport/codec/diagnostics';
import {
  type DecryptionInfo,
  decryptedResponse,
  markDecryptedHeaders,
  responseWith,
} from './decrypted-response.js';
import { describeArrival, describeTarget, isSuccess } from './describe.js';
import { asEnvelope, objectMembers, strictEnvelope } from './envelope-detect.js';
import { JweResponseError } from './errors.js';
import { describeKid, keyProblem } from './keys.js';
import { essence, type HeaderView, headersOf, isJsonMediaType, saysJwe } from './media-type.js';
import type { ResolvedClientOptions, ResponseMode } from './options.js';
import { readBody } from './read-body.js';

/** What the core needs to know about the request a response answers. */
export interface ResponseContext {
  /** The request's method (a HEAD response has no body to open). */
  method: string;
  /** The request's URL, for messages (the query string is never quoted). */
  url?: string | undefined;
  /** True when the request went out sealed: its 2xx answer must then be an envelope. */
  sealed: boolean;
  /** This call's response mode, overriding the client's `responses` option. */
  mode?: ResponseMode | undefined;
}

/** A response's status line and headers, for adapters that hold the body themselves (axios, undici). */
export interface ResponseHead {
  status: number;
  statusText?: string;
  /** fetch `Headers`, or any {@link HeaderView} over the headers as the adapter holds them. */
  headers: HeaderView;
  url?: string;
  /** The response itself, when there is one; errors carry it. */
  response?: Response;
}

/**
 * The outcome of {@link JweClient.openBody}. `headers` are the decrypted response's as fetch
 * `Headers`, built on first read: an adapter that keeps headers in its own form applies
 * `markDecryptedHeaders(copy, info)` to a copy of them instead.
 */
export type OpenedBody =
  | { decrypted: false }
  | { decrypted: true; plaintext: Uint8Array; readonly headers: Headers; info: DecryptionInfo };

const NOT_DECRYPTED: OpenedBody = { decrypted: false };
const BODILESS_STATUSES = new Set([101, 103, 204, 205, 304]);

/** An opened body whose fetch `Headers` are built only if an adapter asks for them. */
class DecryptedBody {
  readonly decrypted = true;
  readonly plaintext: Uint8Array;
  readonly info: DecryptionInfo;
  readonly #source: HeaderView;
  #headers: Headers | undefined;

  constructor(plaintext: Uint8Array, info: DecryptionInfo, source: HeaderView) {
    this.plaintext = plaintext;
    this.info = info;
    this.#source = source;
  }

  get headers(): Headers {
    this.#headers ??= markDecryptedHeaders(headersOf(this.#source), this.info);
    return this.#headers;
  }
}

/** A resolver that names the kid when it hands back an unusable key. */
function checkedKey(key: KeyInput | KeyResolver): KeyInput | KeyResolver {
  if (typeof key !== 'function') return key;
  return async (kid, header) => {
    const resolved = await key(kid, header);
    const problem = resolved === undefined ? undefined : keyProblem(resolved);
    if (problem !== undefined) {
      throw new JweError('ERR_KEY_INVALID', `The key resolver returned ${problem} for ${describeKid(kid)}.`);
    }
    return resolved;
  };
}

function asResponse(head: ResponseHead): Response {
  if (head.response) return head.response;
  const status = head.status >= 200 && head.status <= 599 ? head.status : 500;
  const response = new Response(null, {
    status,
    statusText: head.statusText ?? '',
    headers: headersOf(head.headers),
  });
  Object.defineProperty(response, 'url', { value: head.url ?? '' });
  return response;
}

/** Opens responses under one client's options: the fail-closed response policy lives here. */
export class ResponseOpener {
  readonly #options: ResolvedClientOptions;
  readonly #key: KeyInput | KeyResolver;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#key = checkedKey(options.key);
  }

  /** True when the envelope rules apply to this response with a body: a 2xx that must be sealed. */
  #mustBeEnvelope(status: number, context: ResponseContext): boolean {
    const mode = context.mode ?? this.#options.responses;
    return (
      isSuccess(status) && (context.sealed || mode === 'always') && this.#options.plainResponses === 'reject'
    );
  }

  /** Whether the body must be read to decide; when false, hand the response over as it is. */
  needsBody(head: { status: number; headers: HeaderView }, context: ResponseContext): boolean {
    const mode = context.mode ?? this.#options.responses;
    if (mode === 'never' || BODILESS_STATUSES.has(head.status) || context.method.toUpperCase() === 'HEAD') {
      return false;
    }
    if (saysJwe(head.headers) || this.#mustBeEnvelope(head.status, context)) return true;
    const contentType = head.headers.get('content-type');
    return contentType === null || isJsonMediaType(contentType);
  }

  /**
   * Decrypts `body` when it is an envelope, or says it was not one. Throws `JweResponseError`
   * when it should have been one (marked `X-Encryption: JWE`, or a 2xx to a sealed request) or
   * when it does not decrypt. Call only when {@link needsBody} said so.
   */
  async openBody(body: Uint8Array, head: ResponseHead, context: ResponseContext): Promise<OpenedBody> {
    const opened = await this.#open(body, head, context);
    if (opened === undefined) return NOT_DECRYPTED;
    return new DecryptedBody(opened.plaintext, opened.info, head.headers);
  }

  /** The plaintext and what is known of its envelope, or `undefined` for a body left alone. */
  async #open(body: Uint8Array, head: ResponseHead, context: ResponseContext) {
    const marked = saysJwe(head.headers);
    const required = this.#mustBeEnvelope(head.status, context);
    // An answer that must be an envelope is read once, with the codec's strict parse, and the
    // parsed envelope goes to decryption. A body the strict parse refuses, or any other body,
    // is sorted by the lenient detector: an envelope refused for its JSON (say, a duplicate
    // member) is still opened from its bytes, so it fails as undecryptable, not as plain.
    const strict = marked || required ? strictEnvelope(body) : undefined;
    const contentType = head.headers.get('content-type');
    const candidate = marked || required || contentType === null || isJsonMediaType(contentType);
    const envelope = strict ?? (candidate && body.length > 0 ? asEnvelope(body) : undefined);
    if (envelope === undefined) {
      if (marked) throw this.#notAnEnvelope('ERR_JWE_INVALID', body, head, context);
      if (required) throw this.#notAnEnvelope('ERR_JWE_RESPONSE_NOT_ENCRYPTED', body, head, context);
      return undefined;
    }
    try {
      // The one place responses are opened: `jwe-transport:open` (side client).
      const result = await traceOpen(
        'client',
        body,
        (trace) => {
          if (trace) trace.kid = traceKid(envelope.kid);
          return decryptDetailed(strict ?? body, this.#key, {
            missingProtected: this.#options.missingProtected,
          });
        },
        (opened) => ({ kid: opened.kid, plaintextBytes: opened.plaintext.byteLength }),
      );
      const info: DecryptionInfo = { kid: result.kid, headerSource: result.headerSource };
      return { plaintext: result.plaintext, info };
    } catch (error) {
      if (!isJweError(error)) throw error;
      throw this.#undecryptable(error, envelope, head, context);
    }
  }

  /**
   * The response with its body decrypted (a genuine `Response`; see `wasDecrypted`), the response
   * itself when its body did not need reading, or a copy of it when it was read and is not an envelope.
   */
  async openResponse(response: Response, context: ResponseContext): Promise<Response> {
    if (!this.needsBody(response, context)) return response;
    const body = await readBody(response);
    const head: ResponseHead = {
      status: response.status,
      headers: response.headers,
      url: response.url,
      response,
    };
    const opened = await this.#open(body, head, context);
    const url = response.url || context.url || '';
    try {
      if (opened) return decryptedResponse(opened.plaintext, response, url, opened.info);
      const copy = responseWith(body, response, new Headers(response.headers));
      Object.defineProperties(copy, { url: { value: url }, redirected: { value: response.redirected } });
      return copy;
    } catch (error) {
      throw this.#unbuildable(error, opened !== undefined, head, context);
    }
  }

  /** The process's `Response` class refused the answer's status, headers or bytes. */
  #unbuildable(error: unknown, decrypted: boolean, head: ResponseHead, context: ResponseContext) {
    const what = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : typeof error;
    return new JweResponseError(
      'ERR_JWE_RESPONSE_UNBUILDABLE',
      asResponse(head),
      `${this.#prefix(head, context)} was ${decrypted ? 'decrypted' : 'read'}, but the Response class of this ` +
        `process refused to build the answer from it (${what}). Something in the process replaced the ` +
        'global Response or Headers; check which library did, and whether it has an option to leave them alone.',
      { cause: error },
    );
  }

  #prefix(head: ResponseHead, context: ResponseContext): string {
    return `The ${head.status} response to ${describeTarget(context.method, context.url ?? head.url)}`;
  }

  #notAnEnvelope(
    code: 'ERR_JWE_INVALID' | 'ERR_JWE_RESPONSE_NOT_ENCRYPTED',
    body: Uint8Array,
    head: ResponseHead,
    context: ResponseContext,
  ): JweResponseError {
    const arrived = describeArrival(head.headers, body.length);
    const members = isJsonMediaType(head.headers.get('content-type')) ? objectMembers(body) : undefined;
    const shape = members ? `; a JSON object with members ${members.slice(0, 6).join(', ')}` : '';
    const message =
      code === 'ERR_JWE_INVALID'
        ? `${this.#prefix(head, context)} says X-Encryption: JWE but is not a JWE envelope (${arrived}${shape}). ` +
          'The server or a proxy in between changed it; nothing was decrypted.'
        : `${this.#prefix(head, context)} was not encrypted (${arrived}${shape}), though the request was. ` +
          `Check that ${essence(head.headers.get('content-type')) === 'text/html' ? 'no gateway or proxy answered instead of the service' : 'the endpoint encrypts its answers'}, ` +
          'or accept plain answers with plainResponses: "accept".';
    return new JweResponseError(code, asResponse(head), message);
  }

  #undecryptable(error: JweError, envelope: Envelope, head: ResponseHead, context: ResponseContext) {
    const kids = `The response envelope has ${describeKid(envelope.kid)}; requests are sealed with ${describeKid(this.#options.kid)}.`;
    return new JweResponseError(
      error.code,
      asResponse(head),
      `${this.#prefix(head, context)} could not be decrypted (${error.code}): ${error.message} ${kids}`,
      { cause: error },
    );
  }
}
