import type { EnvelopeInput } from '../envelope.js';
import type { KeyInput, KeyResolver } from '../key.js';
import { active } from '../one-shot/active.js';
import { openJson } from '../one-shot/open.js';
import type { DecryptOptions } from '../options.js';

/**
 * `decrypt`, then the plaintext parsed as JSON. A plaintext that is not UTF-8 JSON is
 * `ERR_JWE_INVALID` (after the tag has verified). `T` is not checked: validate what you receive.
 *
 * @example
 * ```ts
 * import { decryptJson } from '@jwe-transport/codec';
 *
 * const answer = await decryptJson<{ id: string }>(await response.text(), 'k3y-f0r-t3st1ng!');
 * ```
 */
export function decryptJson<T = unknown>(
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options?: DecryptOptions,
): Promise<T> {
  return openJson<T>(active, input, key, options ?? {});
}
