import type { Envelope } from '../envelope.js';
import type { KeyInput } from '../key.js';
import { active } from '../one-shot/active.js';
import { sealNow } from '../one-shot/seal.js';
import type { EncryptOptions } from '../options.js';

/**
 * `encrypt` without a promise, for places that cannot wait (a ky `stringifyJson`, a sync
 * logger). Only back ends with synchronous crypto have it: the Node build does; the WebCrypto
 * and Deno builds (WebCrypto one-shot) throw `JweError` `ERR_JWE_UNSUPPORTED`.
 *
 * @example
 * ```ts
 * import { encryptSync } from '@jwe-transport/codec';
 *
 * const body = JSON.stringify(encryptSync(JSON.stringify({ name: 'Ada' }), 'k3y-f0r-t3st1ng!'));
 * ```
 */
export function encryptSync(
  plaintext: Uint8Array | string,
  key: KeyInput,
  options: EncryptOptions = {},
): Envelope {
  return sealNow(active, plaintext, key, options, 'encryptSync');
}
