import {
  deriveKey,
  JweError,
  type KeyInput,
  type KeyResolver,
  type MissingProtectedPolicy,
} from '@jwe-transport/codec';

function deriveCheck(key: KeyInput): void {
  if (typeof key === 'string') deriveKey(key);
  else if (!(key instanceof Uint8Array) || key.length !== 32) {
    throw new JweError(
      'ERR_KEY_INVALID',
      'jwe(): "key" must be the 16-character shared key string, 32 raw key bytes, or a key resolver function.',
    );
  }
}

/**
 * How responses are read:
 * - `'auto'` (default): decrypt when the response says `X-Encryption: JWE`, or when its JSON body
 *   has the shape of an envelope (`iv`, `ciphertext` and `tag` strings); leave everything else alone.
 * - `'always'`: every response with a body must be an envelope; anything else is an error.
 * - `'never'`: hand responses over untouched.
 */
export type ResponseMode = 'auto' | 'always' | 'never';

/** Decides per request whether its body is encrypted (`true`) or sent as it is (`false`). */
export type RequestFilter = (request: Request) => boolean | Promise<boolean>;

/**
 * Per-request switch, passed through ky's `context` as `context: { jwe: ... }` (or, for
 * `createJweFetch`, as `init.jwe`). `false` turns both directions off for that one call.
 */
export type JweRequestContext = false | { request?: boolean; response?: ResponseMode };

export interface JweOptions {
  /** The 16-character shared key string, the raw 32-byte key, or a resolver (for key rotation). */
  key: KeyInput | KeyResolver;
  /** Key id sent as the top-level `kid` of request envelopes; also what a resolver is asked for. */
  kid?: string;
  /** Which requests to encrypt: `'all'` (default) or a predicate. Requests without a JSON or file body are never touched. */
  encrypt?: 'all' | RequestFilter;
  /** How to treat responses; see {@link ResponseMode}. Default `'auto'`. */
  responses?: ResponseMode;
  /** How to read response envelopes without `protected`; passed to the codec. Default `'infer'`. */
  missingProtected?: MissingProtectedPolicy;
  /**
   * `FormData` files larger than this many bytes are encrypted as a stream and sent as a streamed
   * request body, never held in memory whole. Default 8 MiB.
   */
  streamThreshold?: number;
  /**
   * The fetch used for streamed uploads sent from a ky hook (ky does not hand its own `fetch`
   * option to every hook). Default: ky's `fetch` option when the hook can see it, else the global fetch.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * ky only: how `json` bodies become text before they are sealed, if not `JSON.stringify`.
   * `jwe()` takes over ky's `stringifyJson` option, so pass yours here rather than to ky.
   */
  stringifyJson?: (data: unknown) => string;
}

export interface ResolvedOptions {
  key: KeyInput | KeyResolver;
  kid: string | undefined;
  encrypt: 'all' | RequestFilter;
  responses: ResponseMode;
  missingProtected: MissingProtectedPolicy;
  streamThreshold: number;
  fetch: typeof globalThis.fetch | undefined;
}

export const DEFAULT_STREAM_THRESHOLD = 8 * 2 ** 20;
const RESPONSE_MODES: readonly ResponseMode[] = ['auto', 'always', 'never'];

export function resolveOptions(options: JweOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('jwe(): pass an options object, for example jwe({ key: sharedKey, kid }).');
  }
  if (options.key === undefined) {
    throw new TypeError(
      'jwe(): the "key" option is required (the shared key string, 32 key bytes or a resolver).',
    );
  }
  // A static key is checked now, so a wrong one fails at setup rather than on the first request.
  if (typeof options.key !== 'function') deriveCheck(options.key);
  const responses = options.responses ?? 'auto';
  if (!RESPONSE_MODES.includes(responses)) {
    throw new TypeError(`jwe(): "responses" must be one of ${RESPONSE_MODES.join(', ')}.`);
  }
  const encrypt = options.encrypt ?? 'all';
  if (encrypt !== 'all' && typeof encrypt !== 'function') {
    throw new TypeError('jwe(): "encrypt" must be "all" or a function (request) => boolean.');
  }
  if (options.stringifyJson !== undefined && typeof options.stringifyJson !== 'function') {
    throw new TypeError('jwe(): "stringifyJson" must be a function (data) => string.');
  }
  const streamThreshold = options.streamThreshold ?? DEFAULT_STREAM_THRESHOLD;
  if (!(streamThreshold >= 0))
    throw new TypeError('jwe(): "streamThreshold" must be a number of bytes >= 0.');
  return {
    key: options.key,
    kid: options.kid,
    encrypt,
    responses,
    missingProtected: options.missingProtected ?? 'infer',
    streamThreshold,
    fetch: options.fetch,
  };
}
