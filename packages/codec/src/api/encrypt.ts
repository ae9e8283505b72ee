import type { Envelope } from '../envelope.js';
import type { KeyInput } from '../key.js';
import { active } from '../one-shot/active.js';
import { sealBytes } from '../one-shot/seal.js';
import type { EncryptOptions } from '../options.js';

/**
 * Encrypts `plaintext` (bytes, or a string as its UTF-8) into a flattened JWE envelope
 * (`dir`, `A128CBC-HS256`) with a fresh random 16-byte IV.
 *
 * @param key - The 16-byte shared key string, or the raw 32-byte key.
 * @throws `JweError` `ERR_KEY_INVALID` for a key of the wrong type or length (as a rejection).
 *
 * @example
 * ```ts
 * import { encrypt } from '@jwe-transport/codec';
 *
 * const envelope = await encrypt('hello', 'k3y-f0r-t3st1ng!', { kid: 'k-1' });
 * // { kid: 'k-1', protected: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0', iv, ciphertext, tag }
 * ```
 */
export function encrypt(
  plaintext: Uint8Array | string,
  key: KeyInput,
  options: EncryptOptions = {},
): Promise<Envelope> {
  return sealBytes(active, plaintext, key, options);
}
