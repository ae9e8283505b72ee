import type { KeyInput, KeyResolver, MissingProtectedPolicy } from '@jwe-transport/codec';
import { checkStaticKey } from './keys.js';

/** What the core needs to know about a request to decide on it; a `Request` qualifies. */
export interface RequestHead {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
}

/** Decides per request whether it is sealed (`true`) or left alone (`false`). */
export type RequestFilter = (request: RequestHead) => boolean | Promise<boolean>;

/**
 * How responses are read:
 * - `'auto'` (default): a 2xx response to a sealed request must be an envelope (see
 *   `plainResponses`); any other response is decrypted when it is an envelope and left alone otherwise.
 * - `'always'`: every 2xx response in scope must be an envelope, even to a request with no body (a GET).
 * - `'never'`: responses are handed over untouched.
 */
export type ResponseMode = 'auto' | 'always' | 'never';

/** Per-call switch: `false` leaves both directions of one call alone; or choose each direction. */
export type JweCallOptions = false | { request?: boolean; response?: ResponseMode };

export interface JweClientOptions {
  /** The 16-character shared key string, the 32 raw key bytes, or a resolver (key rotation). */
  key: KeyInput | KeyResolver;
  /** Key id sent as the top-level `kid` of request envelopes; also what a resolver is asked for. */
  kid?: string;
  /**
   * Only requests to these origins (`https://api.example.com`) are touched; others pass through
   * untouched both ways. Default: every origin.
   */
  origins?: readonly (string | URL)[];
  /** Which requests in `origins` to seal: `'all'` (default) or a predicate. */
  encrypt?: 'all' | RequestFilter;
  /** How to read responses; see {@link ResponseMode}. Default `'auto'`. */
  responses?: ResponseMode;
  /**
   * A 2xx response to a sealed request that is not an envelope: `'reject'` (default) raises
   * `ERR_JWE_RESPONSE_NOT_ENCRYPTED`; `'accept'` hands it over as it came.
   */
  plainResponses?: 'reject' | 'accept';
  /** How to read response envelopes without `protected`; passed to the codec. Default `'infer'`. */
  missingProtected?: MissingProtectedPolicy;
  /** The one `FormData` field that may carry the upload. Default `'file'`. */
  fileField?: string;
  /** Files larger than this many bytes are sealed as a stream where the codec can stream. Default 8 MiB. */
  streamThreshold?: number;
}

export interface ResolvedClientOptions {
  readonly key: KeyInput | KeyResolver;
  readonly kid: string | undefined;
  /** Origins as `URL.origin` strings, or `undefined` for every origin. */
  readonly origins: ReadonlySet<string> | undefined;
  readonly encrypt: 'all' | RequestFilter;
  readonly responses: ResponseMode;
  readonly plainResponses: 'reject' | 'accept';
  readonly missingProtected: MissingProtectedPolicy;
  readonly fileField: string;
  readonly streamThreshold: number;
}

export const DEFAULT_STREAM_THRESHOLD = 8 * 2 ** 20;
export const DEFAULT_FILE_FIELD = 'file';
const RESPONSE_MODES: readonly ResponseMode[] = ['auto', 'always', 'never'];

function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    throw new TypeError(`jwe: "${name}" must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}.`);
  }
  return value;
}

function resolveOrigins(origins: JweClientOptions['origins']): ReadonlySet<string> | undefined {
  if (origins === undefined) return undefined;
  if (!Array.isArray(origins)) throw new TypeError('jwe: "origins" must be an array of origins.');
  const resolved = new Set<string>();
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(String(origin));
    } catch {
      throw new TypeError(`jwe: "origins" has ${JSON.stringify(String(origin))}, which is not a URL.`);
    }
    resolved.add(url.origin);
  }
  return resolved;
}

/** Checks options once, at setup, so that a wrong key or typo fails before the first request. */
export function resolveClientOptions(options: JweClientOptions): ResolvedClientOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('jwe: pass an options object, for example { key: sharedKey, kid }.');
  }
  if (options.key === undefined) {
    throw new TypeError(
      'jwe: the "key" option is required (the shared key string, 32 key bytes or a resolver).',
    );
  }
  if (typeof options.key !== 'function') checkStaticKey(options.key, options.kid);
  const encrypt = options.encrypt ?? 'all';
  if (encrypt !== 'all' && typeof encrypt !== 'function') {
    throw new TypeError('jwe: "encrypt" must be "all" or a function (request) => boolean.');
  }
  const streamThreshold = options.streamThreshold ?? DEFAULT_STREAM_THRESHOLD;
  if (!(streamThreshold >= 0)) throw new TypeError('jwe: "streamThreshold" must be a number of bytes >= 0.');
  const fileField = options.fileField ?? DEFAULT_FILE_FIELD;
  if (typeof fileField !== 'string' || fileField === '') {
    throw new TypeError('jwe: "fileField" must be a non-empty form field name.');
  }
  return {
    key: options.key,
    kid: options.kid,
    origins: resolveOrigins(options.origins),
    encrypt,
    responses: oneOf('responses', options.responses, RESPONSE_MODES, 'auto'),
    plainResponses: oneOf('plainResponses', options.plainResponses, ['reject', 'accept'], 'reject'),
    missingProtected: options.missingProtected ?? 'infer',
    fileField,
    streamThreshold,
  };
}
