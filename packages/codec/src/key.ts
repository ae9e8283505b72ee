import { JweError, quote } from './errors.js';
import type { JoseHeader } from './header.js';

/** A shared-key string (doubled into the 32-byte key) or the raw 32-byte A128CBC-HS256 key. */
export type KeyInput = string | Uint8Array;

/**
 * Picks the key for an envelope, for key rotation. `kid` is the envelope's key id (top-level
 * member or header parameter), or `undefined` when it has none. Return `undefined` when the
 * kid is not known; the codec then fails with `ERR_KEY_UNKNOWN`.
 */
export type KeyResolver = (
  kid: string | undefined,
  header: Readonly<JoseHeader>,
) => KeyInput | undefined | Promise<KeyInput | undefined>;

/** Bytes in a raw A128CBC-HS256 key: the MAC key followed by the AES key. */
export const KEY_BYTES = 32;
/** Bytes in the service's shared key, which is doubled into the raw key. */
export const SHARED_KEY_BYTES = KEY_BYTES / 2;

const utf8 = new TextEncoder();

/**
 * The service's key construction (docs/wire-format.md#key-derivation): the shared key string
 * concatenated with itself, as UTF-8. A 16-byte shared key gives the 32-byte key that A128CBC-HS256 needs.
 */
export function deriveKey(shared: string): Uint8Array<ArrayBuffer> {
  if (typeof shared !== 'string') {
    throw new JweError('ERR_KEY_INVALID', `A shared key must be a string, got ${typeof shared}.`);
  }
  const once = utf8.encode(shared);
  if (once.length !== SHARED_KEY_BYTES) {
    throw new JweError(
      'ERR_KEY_INVALID',
      `The shared key is ${once.length} bytes of UTF-8; it must be exactly ${SHARED_KEY_BYTES} bytes ` +
        `(for example 16 ASCII characters), because it is doubled into the ${KEY_BYTES}-byte A128CBC-HS256 key.`,
    );
  }
  const key = new Uint8Array(KEY_BYTES);
  key.set(once, 0);
  key.set(once, SHARED_KEY_BYTES);
  return key;
}

/** Turns any accepted key form into the 32 raw key bytes (a copy, so later caller edits do not leak in). */
export function keyBytes(key: KeyInput): Uint8Array<ArrayBuffer> {
  if (typeof key === 'string') return deriveKey(key);
  if (key instanceof Uint8Array) {
    if (key.length !== KEY_BYTES) {
      throw new JweError(
        'ERR_KEY_INVALID',
        `A raw key must be ${KEY_BYTES} bytes for A128CBC-HS256, got ${key.length}. ` +
          'Pass the 16-character shared key string instead to have it doubled.',
      );
    }
    return key.slice();
  }
  throw new JweError('ERR_KEY_INVALID', 'A key must be a shared-key string or a 32-byte Uint8Array.');
}

export function unknownKid(kid: string | undefined): JweError {
  return new JweError(
    'ERR_KEY_UNKNOWN',
    kid === undefined
      ? 'The envelope has no "kid" and the key resolver has no default key for it.'
      : `No key is configured for kid ${quote(kid)}. Add it to the key resolver or check the sender's kid.`,
  );
}

/**
 * A resolver over a fixed set of keys: `{ kid: sharedKey }`. Envelopes without a kid use
 * `defaultKid` when given, otherwise the only key when there is exactly one.
 */
export function keyring(
  keys: Readonly<Record<string, KeyInput>>,
  options: { defaultKid?: string } = {},
): KeyResolver {
  const entries = new Map<string, Uint8Array>();
  for (const [kid, key] of Object.entries(keys)) entries.set(kid, keyBytes(key));
  const fallback =
    options.defaultKid !== undefined
      ? options.defaultKid
      : entries.size === 1
        ? [...entries.keys()][0]
        : undefined;
  if (fallback !== undefined && !entries.has(fallback)) {
    throw new JweError('ERR_KEY_UNKNOWN', `keyring: defaultKid ${quote(fallback)} is not one of the keys.`);
  }
  return (kid) => entries.get(kid ?? fallback ?? '');
}
