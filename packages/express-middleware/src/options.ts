import type { MissingProtectedPolicy } from '@jwe-transport/codec';
import {
  type ResolvedOptions as CoreOptions,
  type KeysOption,
  type ResponseEncryption,
  resolveOptions as resolveCoreOptions,
  type SizeLimit,
} from '@jwe-transport/server-core';
import { DEFAULT_IDLE_TIMEOUT } from './idle-timeout.js';

export type { ResponseEncryption };

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

export interface ResolvedOptions extends CoreOptions {
  plainJson: 'parse' | 'ignore';
  strict: boolean;
  timeout: number;
}

export function resolveOptions(options: JweOptions, defaultLimit: SizeLimit): ResolvedOptions {
  // The core checks the shared options; Express's `strictPlaintext` is the core's `strictJson`.
  const shared = resolveCoreOptions(
    options === null || typeof options !== 'object'
      ? options
      : { ...options, limit: options.limit ?? defaultLimit, strictJson: options.strictPlaintext !== false },
  );
  const plainJson = options.plainJson ?? 'parse';
  if (plainJson !== 'parse' && plainJson !== 'ignore') {
    throw new TypeError('jwe: "plainJson" must be "parse" or "ignore".');
  }
  return { ...shared, plainJson, strict: options.strict !== false, timeout: parseTimeout(options.timeout) };
}

function parseTimeout(timeout: number | undefined): number {
  if (timeout === undefined) return DEFAULT_IDLE_TIMEOUT;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError('jwe: "timeout" must be a whole number of milliseconds (0 turns it off).');
  }
  return timeout;
}
