import type { EnvelopeInput } from '../envelope.js';
import type { KeyInput, KeyResolver } from '../key.js';
import { active } from '../one-shot/active.js';
import { openBytes } from '../one-shot/open.js';
import type { DecryptOptions } from '../options.js';

/**
 * Opens an envelope (an object, its JSON text, the raw body bytes or a compact string) and
 * resolves with its plaintext bytes. The tag is verified, in constant time, before anything is
 * decrypted.
 *
 * @param key - A key, or a `KeyResolver` that picks one by the envelope's `kid` (see `keyring`).
 * @throws `JweError`: `ERR_JWE_DECRYPTION_FAILED` for every authentication failure,
 * `ERR_JWE_INVALID`, `ERR_JWE_UNSUPPORTED`, `ERR_KEY_INVALID` or `ERR_KEY_UNKNOWN` (as rejections).
 *
 * @example
 * ```ts
 * import { decrypt } from '@jwe-transport/codec';
 *
 * const bytes = await decrypt(await response.text(), 'k3y-f0r-t3st1ng!');
 * new TextDecoder().decode(bytes);
 * ```
 */
export function decrypt(
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  return openBytes(active, input, key, options);
}
