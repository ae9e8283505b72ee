import { backendName, type DecryptResult, decryptDetailed, encrypt, encryptSync } from '@jwe-transport/codec';
import { byteSize, kidNotingResolver, traceOpen, traceSeal } from '@jwe-transport/codec/diagnostics';
import { envelopeJson } from './envelope-json.js';
import { encryptionRequired, noResponseKey, toHttpError } from './errors.js';
import { keyForKid, type RecordingResolver, type ResponseKey, recordingResolver } from './keys.js';
import { type JweServerOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { noteKid } from './refusal.js';
import { type JweRequestInfo, PLAIN_INFO } from './request-info.js';
import { type ParsedPlaintext, parseJsonBody, parsePlaintext } from './strict-json.js';

/** An opened request: what happened to it, and the key its answers are sealed with (if any). */
export interface Opened {
  readonly info: JweRequestInfo;
  /** Internal to adapters: never hand it to route handlers. */
  readonly responseKey: ResponseKey | undefined;
}

/** The result of opening an envelope: the authenticated plaintext beside the request's state. */
export interface OpenedEnvelope extends Opened {
  readonly plaintext: Uint8Array;
}

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
          const failure = toHttpError(error);
          noteKid(failure, recorder.asked);
          throw failure;
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

  /** A plain JSON body, read with the same rules as decrypted ones (`strictJson`, `maxDepth`). */
  parsePlainJson(bytes: Uint8Array): ParsedPlaintext {
    return parseJsonBody(bytes, 'The request body', this.options);
  }

  /** Seals an answer body under the request's key and kid: the envelope's JSON text. */
  async seal(body: Uint8Array | string, key: ResponseKey): Promise<string> {
    return (
      this.sealNow(body, key) ??
      traceSeal(
        'server',
        key.kid,
        body,
        async () => envelopeJson(await encrypt(body, key.key, kidOption(key))),
        sealedFacts,
      )
    );
  }

  /** `seal` without a promise, where the crypto back end can (Node); else `undefined`. */
  sealNow(body: Uint8Array | string, key: ResponseKey): string | undefined {
    if (!SYNC_CRYPTO) return undefined;
    // With `seal`, the one place answers are sealed: `jwe-transport:seal` (side server).
    return traceSeal(
      'server',
      key.kid,
      body,
      () => envelopeJson(encryptSync(body, key.key, kidOption(key))),
      sealedFacts,
    );
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

const PLAIN_INFO_ONLY: Opened = Object.freeze({ info: PLAIN_INFO, responseKey: undefined });
