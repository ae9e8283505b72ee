import { backendName, encryptSync } from '@jwe-transport/codec';
import { byteSize, type TraceFacts, traceSeal } from '@jwe-transport/codec/diagnostics';
import type { HeaderView } from './media-type.js';
import { type OpenedBody, type ResponseContext, type ResponseHead, ResponseOpener } from './open-response.js';
import {
  type JweCallOptions,
  type JweClientOptions,
  type RequestHead,
  type ResolvedClientOptions,
  type ResponseMode,
  resolveClientOptions,
} from './options.js';
import { BodySealer, type SealableBody, type SealCallOptions, type SealedBody } from './seal-body.js';

/** What one call does, after the client's options and the call's own switch are combined. */
export interface CallPlan {
  /** Seal the request body (if it has one). */
  seal: boolean;
  /** How to read the response; `'never'` for calls out of scope or opted out. */
  responses: ResponseMode;
}

/**
 * Everything an HTTP adapter needs, with no HTTP library behind it. Build one per configuration
 * with {@link createJweClient} and keep it: it checks the options once and caches nothing secret
 * beyond what the codec caches.
 */
export interface JweClient {
  readonly options: ResolvedClientOptions;
  /** Whether `url` is one of the configured `origins` (always true without `origins`). */
  inScope(url: string | URL): boolean;
  /** How to read the response to a call to `url`: `'never'` out of scope or opted out. */
  responseMode(url: string | URL, call?: JweCallOptions): ResponseMode;
  /** What to do with one call: origins, the per-call switch, then the `encrypt` filter. */
  plan(request: RequestHead, call?: JweCallOptions): Promise<CallPlan>;
  /**
   * Seals a body (see `BodySealer.seal`); `kind: 'empty'` when there is none. `call.onProgress`
   * reports a file's plaintext bytes as the envelope is produced (the file is then streamed).
   */
  seal(body: SealableBody, headers?: HeadersInit, call?: SealCallOptions): Promise<SealedBody>;
  /** Seals JSON text as it is. */
  sealJson(text: string | Uint8Array, headers?: HeadersInit): Promise<SealedBody>;
  /** True when {@link sealJsonSync} can seal (a static key and the Node build of the codec). */
  readonly canSealSync: boolean;
  /**
   * The envelope text of JSON text, synchronously, or `undefined` where that is impossible (a key
   * resolver, or the WebCrypto build). For serializers that cannot wait, such as ky's `stringifyJson`.
   */
  sealJsonSync(text: string): string | undefined;
  /** Whether a response's body must be read to apply the response policy. */
  needsBody(head: { status: number; headers: HeaderView }, context: ResponseContext): boolean;
  /** Decrypts a body already read (axios, undici); throws `JweResponseError` when it fails closed. */
  openBody(body: Uint8Array, head: ResponseHead, context: ResponseContext): Promise<OpenedBody>;
  /** Decrypts a fetch `Response` into a genuine `Response`, or hands it back as it is. */
  openResponse(response: Response, context: ResponseContext): Promise<Response>;
}

function originOf(url: string | URL): string | undefined {
  try {
    const base = (globalThis as { location?: { href?: string } }).location?.href;
    return new URL(String(url), base).origin;
  } catch {
    return undefined;
  }
}

/** Builds the client core for one set of options; see {@link JweClientOptions}. */
export function createJweClient(options: JweClientOptions): JweClient {
  const resolved = resolveClientOptions(options);
  const sealer = new BodySealer(resolved);
  const opener = new ResponseOpener(resolved);
  const kidOption = resolved.kid === undefined ? {} : { kid: resolved.kid };
  const staticKey = typeof resolved.key === 'function' ? undefined : resolved.key;
  const syncSealing = backendName === 'node' && staticKey !== undefined;

  const inScope = (url: string | URL): boolean => {
    if (resolved.origins === undefined) return true;
    const origin = originOf(url);
    return origin !== undefined && resolved.origins.has(origin);
  };

  return {
    options: resolved,
    canSealSync: syncSealing,
    inScope,
    responseMode(url, call) {
      if (call === false || !inScope(url)) return 'never';
      return call?.response ?? resolved.responses;
    },
    async plan(request, call) {
      if (call === false || !inScope(request.url)) return { seal: false, responses: 'never' };
      const responses = call?.response ?? resolved.responses;
      let seal = call?.request ?? true;
      if (seal && resolved.encrypt !== 'all') seal = await resolved.encrypt(request);
      return { seal, responses };
    },
    // The places requests are sealed: `jwe-transport:seal` (side client); no body, no seal.
    seal: (body, headers, call) =>
      body === null || body === undefined
        ? sealer.seal(body, headers, call)
        : traceSeal(
            'client',
            resolved.kid,
            sizeable(body),
            () => sealer.seal(body, headers, call),
            sealedFacts,
          ),
    sealJson: (text, headers) =>
      traceSeal('client', resolved.kid, text, () => sealer.sealJson(text, headers), sealedFacts),
    sealJsonSync(text) {
      if (!syncSealing) return undefined;
      return traceSeal(
        'client',
        resolved.kid,
        text,
        () => JSON.stringify(encryptSync(text, staticKey!, kidOption)),
        envelopeFacts,
      );
    },
    needsBody: (head, context) => opener.needsBody(head, context),
    openBody: (body, head, context) => opener.openBody(body, head, context),
    openResponse: (response, context) => opener.openResponse(response, context),
  };
}

/** The plaintext, for its size, where it is at hand (text, bytes); none for blobs, forms and streams. */
function sizeable(body: SealableBody): string | Uint8Array | undefined {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return undefined;
}

const envelopeFacts = (envelope: string): TraceFacts => ({ envelopeBytes: byteSize(envelope) });

function sealedFacts(sealed: SealedBody): TraceFacts {
  if (sealed.kind === 'buffered') return { envelopeBytes: byteSize(sealed.body) };
  return { streamed: sealed.kind === 'streamed' };
}
