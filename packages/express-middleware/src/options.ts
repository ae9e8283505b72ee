import type { KeyResolver, MissingProtectedPolicy } from '@jwe-transport/codec';
import { DEFAULT_IDLE_TIMEOUT } from './idle-timeout.js';
import { type KeysOption, toResolver } from './keys.js';
import { parseLimit, type SizeLimit } from './limit.js';

/** When answers are encrypted: `'auto'` when the request was, `'always'`, or `'never'`. */
export type ResponseEncryption = 'auto' | 'always' | 'never';

export interface JweOptions {
  /** Keys by kid (`{ 'kid-1': 'sixteen-chars-ky' }`) or a resolver `(kid, header) => key`, sync or async. */
  keys: KeysOption;
  /** With a keys map: the key for envelopes without a kid (default: the only key when there is one). */
  defaultKid?: string;
  /** Largest request body, in bytes or as `'100kb'`/`'10mb'`. Default `'100kb'` (`'10mb'` for uploads). */
  limit?: SizeLimit;
  /** Refuse plain (unencrypted) request bodies with 415 `jwe.required`. Default `false`. */
  requireEncryption?: boolean;
  /** Plain JSON bodies: `'parse'` them here (default) or `'ignore'` them and leave them to `express.json()`. */
  plainJson?: 'parse' | 'ignore';
  /** When `res.json`/`res.send` bodies go out as envelopes. Default `'auto'`. */
  responses?: ResponseEncryption;
  /** With `responses: 'always'`: the kid whose key encrypts answers to plain requests. */
  responseKid?: string;
  /** How request envelopes without `protected` are read; see the codec. Default `'infer'`. */
  missingProtected?: MissingProtectedPolicy;
  /**
   * Refuse decrypted JSON with a member twice or a `__proto__`/`constructor` member (400
   * `jwe.plaintext.invalid`), so that no other parser can read it differently. Default `true`.
   */
  strictPlaintext?: boolean;
  /** Like body-parser's `strict`: JSON bodies must be an object or an array at the top. Default `true`. */
  strict?: boolean;
  /**
   * Milliseconds a client may go without sending a body byte before the request is dropped
   * with 408 (an idle timeout, not a total one). `0` turns it off. Default `30_000`.
   */
  timeout?: number;
}

export interface ResolvedOptions {
  resolver: KeyResolver;
  limit: number;
  requireEncryption: boolean;
  plainJson: 'parse' | 'ignore';
  responses: ResponseEncryption;
  responseKid: string | undefined;
  missingProtected: MissingProtectedPolicy;
  strictPlaintext: boolean;
  strict: boolean;
  timeout: number;
}

const RESPONSES = new Set<string>(['auto', 'always', 'never']);

export function resolveOptions(options: JweOptions, defaultLimit: SizeLimit): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('jwe: pass an options object, for example jwe({ keys: { "kid-1": sharedKey } }).');
  }
  const responses = options.responses ?? 'auto';
  if (!RESPONSES.has(responses)) throw new TypeError('jwe: "responses" must be "auto", "always" or "never".');
  const plainJson = options.plainJson ?? 'parse';
  if (plainJson !== 'parse' && plainJson !== 'ignore') {
    throw new TypeError('jwe: "plainJson" must be "parse" or "ignore".');
  }
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
    limit: parseLimit(options.limit ?? defaultLimit, 'jwe: "limit"'),
    requireEncryption: options.requireEncryption === true,
    plainJson,
    responses,
    responseKid,
    missingProtected: options.missingProtected ?? 'infer',
    strictPlaintext: options.strictPlaintext !== false,
    strict: options.strict !== false,
    timeout: parseTimeout(options.timeout),
  };
}

function parseTimeout(timeout: number | undefined): number {
  if (timeout === undefined) return DEFAULT_IDLE_TIMEOUT;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError('jwe: "timeout" must be a whole number of milliseconds (0 turns it off).');
  }
  return timeout;
}
