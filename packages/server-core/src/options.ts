import type { KeyResolver, MissingProtectedPolicy } from '@jwe-transport/codec';
import { type KeysOption, toResolver } from './keys.js';
import { parseLimit, type SizeLimit } from './limit.js';
import { DEFAULT_MAX_DEPTH } from './strict-json.js';

/** When answers are sealed: `'auto'` when the request was encrypted, `'always'`, or `'never'`. */
export type ResponseEncryption = 'auto' | 'always' | 'never';

export interface JweServerOptions {
  /** Keys by kid (`{ 'kid-1': 'sixteen-chars-ky' }`) or a resolver `(kid, header) => key`, sync or async. */
  keys: KeysOption;
  /** With a keys map: the key for envelopes without a kid (default: the only key when there is one). */
  defaultKid?: string;
  /** Largest encrypted request body, in bytes or as `'100kb'`/`'10mb'`. Default `'100kb'`. */
  limit?: SizeLimit;
  /** Refuse plain (unencrypted) request bodies with 415 `jwe.required`. Default `false`. */
  requireEncryption?: boolean;
  /** When JSON answers go out as envelopes. Default `'auto'`. */
  responses?: ResponseEncryption;
  /** With `responses: 'always'`: the kid whose key seals answers to plain requests. */
  responseKid?: string;
  /** How request envelopes without `protected` are read; see the codec. Default `'infer'`. */
  missingProtected?: MissingProtectedPolicy;
  /**
   * Decrypted JSON is parsed strictly (duplicate members, `__proto__` and `constructor` keys are
   * refused with 400 `jwe.plaintext.invalid`). Set `false` to parse it with plain `JSON.parse`.
   */
  strictJson?: boolean;
  /**
   * Deepest nesting of objects and arrays in a JSON body, plain or decrypted, before it is refused
   * with 400 `ERR_JSON_TOO_DEEP`. Default `1000`: a few bytes a level, so a small body could
   * otherwise nest deeply enough to overflow the stack of whatever reflects it.
   */
  maxDepth?: number;
}

export interface ResolvedOptions {
  resolver: KeyResolver;
  limit: number;
  requireEncryption: boolean;
  responses: ResponseEncryption;
  responseKid: string | undefined;
  missingProtected: MissingProtectedPolicy;
  strictJson: boolean;
  maxDepth: number;
}

const RESPONSES = new Set<string>(['auto', 'always', 'never']);

export const DEFAULT_LIMIT = '100kb';

export function resolveOptions(options: JweServerOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('jwe: pass an options object, for example jwe({ keys: { "kid-1": sharedKey } }).');
  }
  const responses = options.responses ?? 'auto';
  if (!RESPONSES.has(responses)) throw new TypeError('jwe: "responses" must be "auto", "always" or "never".');
  let responseKid = options.responseKid ?? options.defaultKid;
  if (responses === 'always' && typeof options.keys !== 'function') {
    const kids = Object.keys(options.keys ?? {});
    responseKid ??= kids.length === 1 ? kids[0] : undefined;
    if (responseKid === undefined || !kids.includes(responseKid)) {
      throw new TypeError('jwe: with responses: "always", set "responseKid" to one of the kids in "keys".');
    }
  }
  return {
    resolver: toResolver(options.keys, options.defaultKid),
    limit: parseLimit(options.limit ?? DEFAULT_LIMIT, 'jwe: "limit"'),
    requireEncryption: options.requireEncryption === true,
    responses,
    responseKid,
    missingProtected: options.missingProtected ?? 'infer',
    strictJson: options.strictJson !== false,
    maxDepth: resolveDepth(options.maxDepth),
  };
}

function resolveDepth(maxDepth: number | undefined): number {
  if (maxDepth === undefined) return DEFAULT_MAX_DEPTH;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) {
    throw new TypeError('jwe: "maxDepth" must be a whole number of levels, 1 or more.');
  }
  return maxDepth;
}
