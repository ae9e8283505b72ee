import type { EnvelopeInput } from '../envelope.js';
import type { KeyInput, KeyResolver } from '../key.js';
import { active } from '../one-shot/active.js';
import { openDetailed } from '../one-shot/open.js';
import type { DecryptOptions, DecryptResult } from '../options.js';

/**
 * `decrypt` with what the envelope said about itself: the joint JOSE header, the `kid`, and
 * `headerSource`, which reading of a missing `protected` member authenticated.
 *
 * @example
 * ```ts
 * import { decryptDetailed, keyring } from '@jwe-transport/codec';
 *
 * const keys = keyring({ 'k-1': 'k3y-f0r-t3st1ng!', 'k-2': 'n3w-k3y-f0r-t3st' });
 * const { plaintext, kid, headerSource } = await decryptDetailed(body, keys);
 * ```
 */
export function decryptDetailed(
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions = {},
): Promise<DecryptResult> {
  return openDetailed(active, input, key, options);
}
