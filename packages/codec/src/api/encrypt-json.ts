import type { Envelope } from '../envelope.js';
import type { KeyInput } from '../key.js';
import { active } from '../one-shot/active.js';
import { sealJson } from '../one-shot/seal.js';
import type { EncryptOptions } from '../options.js';

/**
 * Encrypts `JSON.stringify(value)`. Rejects with a `TypeError` for a value that has no JSON
 * representation (`undefined`, a function).
 *
 * @example
 * ```ts
 * import { encryptJson } from '@jwe-transport/codec';
 *
 * const envelope = await encryptJson({ aadhaar_number: '123412341234' }, 'k3y-f0r-t3st1ng!');
 * await fetch(url, { method: 'POST', headers: { 'X-Encryption': 'jwe' }, body: JSON.stringify(envelope) });
 * ```
 */
export function encryptJson(value: unknown, key: KeyInput, options?: EncryptOptions): Promise<Envelope> {
  return sealJson(active, value, key, options ?? {});
}
