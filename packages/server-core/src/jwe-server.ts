import { backendName, type DecryptResult, decryptDetailed, encrypt, encryptSync } from '@jwe-transport/codec';
import { byteSize, kidNotingResolver, traceOpen, traceSeal } from '@jwe-transport/codec/diagnostics';
import {
  ENCRYPT_FAILED,
  ENCRYPT_FAILED_BODY,
  JSON_UTF8,
  type JweAnswer,
  type JweRefusalAnswer,
  type PlainRefusal,
  type SealFailure,
} from './decision.js';
import { carriesBody, isJsonType } from './encryption-header.js';
import { envelopeJson } from './envelope-json.js';
import { errorBody, statusOf } from './error-body.js';
import {
  afterAuthentication,
  encryptFailed,
  encryptionRequired,
  JweHttpError,
  noResponseKey,
  toHttpError,
  withKid,
} from './errors.js';
import { keyForKid, type RecordingResolver, type ResponseKey, recordingResolver } from './keys.js';
import type { Opened, OpenedEnvelope } from './opened.js';
import { type JweServerOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { describeRefusal, loggableKid } from './refusal.js';
import { PLAIN_INFO } from './request-info.js';
import { type ParsedPlaintext, parseJsonBody, parsePlaintext } from './strict-json.js';

export type { Opened, OpenedEnvelope } from './opened.js';

/**
 * The framework-free engine every adapter shares: opens envelopes, decides how answers are
 * sealed and seals them. It works on bytes; `withJwe` and the adapters feed it from their own
 * request objects.
 */
export class JweServer {
  readonly options: ResolvedOptions;

  constructor(options: JweServerOptions) {
    this.options = resolveOptions(options);
  }

  /**
   * Decrypts an envelope (object, JSON text or body bytes). Failures are `JweHttpError`s.
   * `consumeBody`: the body bytes were read for this call alone, so the codec may decrypt within
   * them (see the codec's `consumeInput`).
   */
  openEnvelope(body: Uint8Array | string | object, { consumeBody = false } = {}): Promise<OpenedEnvelope> {
    // The one place every adapter opens a request envelope: `jwe-transport:open` (side server).
    return traceOpen(
      'server',
      typeof body === 'string' || body instanceof Uint8Array ? body : undefined,
      async (trace) => {
        const recorder = recordingResolver(this.options.resolver);
        let result: DecryptResult;
        try {
          result = await decryptDetailed(body as Uint8Array, kidNotingResolver(trace, recorder.resolve), {
            missingProtected: this.options.missingProtected,
            consumeInput: consumeBody,
          });
        } catch (error) {
          throw withKid(toHttpError(error), recorder.asked);
        }
        const { info, responseKey } = this.opened(result, recorder);
        return { info, responseKey, plaintext: result.plaintext };
      },
      (opened) => ({ kid: opened.info.kid, plaintextBytes: opened.plaintext.byteLength }),
    );
  }

  /** The state of a request whose envelope authenticated with the key `recorder` handed out. */
  opened(
    result: Pick<DecryptResult, 'kid' | 'header'> & {
      headerSource: DecryptResult['headerSource'] | undefined;
    },
    recorder: RecordingResolver,
  ): Opened {
    const used = recorder.used;
    if (!used) throw noResponseKey();
    const encryptsResponse = this.options.responses !== 'never';
    return {
      info: {
        encrypted: true,
        kid: result.kid,
        header: result.header ?? used.header,
        headerSource: result.headerSource,
        encryptsResponse,
      },
      responseKey: encryptsResponse ? { key: used.key, kid: result.kid } : undefined,
    };
  }

  /** A plain request: refused when encryption is required and it has a body; sealed answers with `'always'`. */
  async openPlain(hasBody: boolean): Promise<Opened> {
    return this.openPlainNow(hasBody) ?? this.openPlainAlways();
  }

  /** `openPlain` without a promise where no key lookup is needed (every mode but `'always'`); else `undefined`. */
  openPlainNow(hasBody: boolean): Opened | undefined {
    if (hasBody && this.options.requireEncryption) throw encryptionRequired();
    return this.options.responses === 'always' ? undefined : PLAIN_INFO_ONLY;
  }

  private async openPlainAlways(): Promise<Opened> {
    const kid = this.options.responseKid;
    const key = await keyForKid(this.options.resolver, kid);
    if (key === undefined) throw noResponseKey();
    return { info: { ...PLAIN_INFO, encryptsResponse: true }, responseKey: { key, kid } };
  }

  /** The decrypted body as JSON, strictly unless `strictJson: false`. */
  parseJson(plaintext: Uint8Array): unknown {
    return this.parsePlaintext(plaintext).value;
  }

  /** `parseJson` that also gives the decoded text. */
  parsePlaintext(plaintext: Uint8Array): ParsedPlaintext {
    return parsePlaintext(plaintext, this.options.strictJson, this.options.maxDepth);
  }

  /**
   * Parses an authenticated body; a failure carries the request's state, so its answer is
   * sealed like any other (`refuse`).
   */
  parseOpened(opened: OpenedEnvelope): ParsedPlaintext {
    try {
      return this.parsePlaintext(opened.plaintext);
    } catch (error) {
      throw afterAuthentication(error, opened);
    }
  }

  /** A plain JSON body, read with the same rules as decrypted ones (`strictJson`, `maxDepth`). */
  parsePlainJson(bytes: Uint8Array): ParsedPlaintext {
    return parseJsonBody(bytes, 'The request body', this.options);
  }

  /** Seals an answer body under the request's key and kid: the envelope's JSON text. */
  async seal(body: Uint8Array | string, key: ResponseKey): Promise<string> {
    return this.sealEnvelope(body, key);
  }

  /** `seal` without a promise, where the crypto back end can (Node); else `undefined`. */
  sealNow(body: Uint8Array | string, key: ResponseKey): string | undefined {
    if (!SYNC_CRYPTO) return undefined;
    return this.sealEnvelope(body, key) as string;
  }

  /**
   * The one place answers are sealed, published as `jwe-transport:seal` (side server):
   * synchronously where the crypto back end can (node:crypto saves a promise per answer), else
   * through WebCrypto's promise.
   */
  private sealEnvelope(body: Uint8Array | string, key: ResponseKey): string | Promise<string> {
    const options = kidOption(key);
    return SYNC_CRYPTO
      ? traceSeal(
          'server',
          key.kid,
          body,
          () => envelopeJson(encryptSync(body, key.key, options)),
          sealedFacts,
        )
      : traceSeal(
          'server',
          key.kid,
          body,
          async () => envelopeJson(await encrypt(body, key.key, options)),
          sealedFacts,
        );
  }

  /**
   * The decision for an answer the application wrote: a JSON body to a request that holds a key
   * is sealed (`X-Encryption: JWE`, a new length, no ETag); anything else is left as it is. If
   * sealing fails the answer is a generic 500, never the plaintext, and its `failure` is for the
   * adapter to report. Synchronous where sealing is.
   */
  answer(
    opened: Opened | undefined,
    status: number,
    contentType: string | null | undefined,
    body: string | Uint8Array | undefined,
  ): JweAnswer | Promise<JweAnswer> {
    const key = opened?.responseKey;
    const vary = this.variesByEncryption;
    if (!key || body === undefined || !carriesBody(status) || !isJsonType(contentType)) {
      return { status, headers: NO_HEADERS, remove: NOTHING, vary, body: undefined, sealed: false };
    }
    let envelope: string | Promise<string>;
    try {
      envelope = this.sealEnvelope(body, key);
    } catch (error) {
      return failedAnswer(vary, sealFailure(status, body, key, error));
    }
    return typeof envelope === 'string'
      ? sealedAnswer(status, vary, envelope)
      : envelope.then(
          (sealed) => sealedAnswer(status, vary, sealed),
          (error: unknown) => failedAnswer(vary, sealFailure(status, body, key, error)),
        );
  }

  /**
   * The plain answer to any error: `{"error": {"type", "code", "message"}}` with its status
   * (messages of 5xx hidden), the report for logs, and the state that seals it: `opened` when
   * the caller holds it, else the one a `JweHttpError` raised after authentication carries.
   */
  refusal(error: unknown, opened?: Opened): PlainRefusal {
    const failure = toHttpError(error);
    const state = opened ?? JweHttpError.openedOf(failure);
    const status = statusOf(failure);
    // A refused body closes the connection, so an unread upload is not drained from the client.
    const headers = status === 413 || status === 415 ? CLOSING_JSON_HEADERS : PLAIN_JSON_HEADERS;
    return {
      status,
      headers,
      body: JSON.stringify(errorBody(failure)),
      report: describeRefusal(failure, state?.info.kid),
      opened: state,
    };
  }

  /**
   * `refusal`, sealed when the request authenticated: the whole decision for an error. Its
   * `report` is the refusal's; a `failure` says its sealing failed too (both are the operator's).
   */
  refuse(error: unknown, opened?: Opened): JweRefusalAnswer | Promise<JweRefusalAnswer> {
    const plain = this.refusal(error, opened);
    const decided = this.answer(plain.opened, plain.status, JSON_UTF8, plain.body);
    const merge = (answer: JweAnswer): JweRefusalAnswer => ({
      status: answer.status,
      headers: { ...plain.headers, ...answer.headers },
      remove: answer.remove,
      vary: answer.vary,
      body: answer.body ?? plain.body,
      sealed: answer.sealed,
      report: plain.report,
      ...(answer.failure && { failure: answer.failure }),
    });
    return decided instanceof Promise ? decided.then(merge) : merge(decided);
  }

  /** Whether `answer` and `refuse` decide without a promise (the crypto back end seals synchronously: Node). */
  get sealsSynchronously(): boolean {
    return SYNC_CRYPTO;
  }

  /** Whether answers may differ by `X-Encryption`, so caches must keep them apart. */
  get variesByEncryption(): boolean {
    return this.options.responses === 'auto';
  }
}

// WebCrypto has no synchronous encryption; node:crypto does, and it saves a promise per answer.
const SYNC_CRYPTO = backendName === 'node';
const sealedFacts = (envelope: string) => ({ envelopeBytes: byteSize(envelope) });
const kidOption = (key: ResponseKey) => (key.kid === undefined ? {} : { kid: key.kid });

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NOTHING: readonly string[] = Object.freeze([]);
const SEALED_HEADERS = Object.freeze({ 'x-encryption': 'JWE', 'content-type': JSON_UTF8 });
const STALE_HEADERS = Object.freeze(['content-length', 'etag']);
const UNSEALED_HEADERS = Object.freeze(['x-encryption', 'content-length', 'etag']);
const PLAIN_JSON_HEADERS = Object.freeze({ 'content-type': JSON_UTF8 });
const CLOSING_JSON_HEADERS = Object.freeze({ 'content-type': JSON_UTF8, connection: 'close' });

const sealedAnswer = (status: number, vary: boolean, envelope: string): JweAnswer => ({
  status,
  headers: SEALED_HEADERS,
  remove: STALE_HEADERS,
  vary,
  body: envelope,
  sealed: true,
});
const failedAnswer = (vary: boolean, failure: SealFailure): JweAnswer => ({
  status: 500,
  headers: PLAIN_JSON_HEADERS,
  remove: UNSEALED_HEADERS,
  vary,
  body: ENCRYPT_FAILED_BODY,
  sealed: false,
  failure,
});
const sealFailure = (
  status: number,
  body: string | Uint8Array,
  key: ResponseKey,
  cause: unknown,
): SealFailure => ({
  error: encryptFailed(status, body, cause),
  report: { status: 500, ...ENCRYPT_FAILED, kid: loggableKid(key.kid) },
});

const PLAIN_INFO_ONLY: Opened = Object.freeze({ info: PLAIN_INFO, responseKey: undefined });
