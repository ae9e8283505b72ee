import { decryptDetailed, type HeaderSource, isJweError, TAG_BYTES } from '@jwe-transport/codec';
import { InspectError } from './errors.js';
import { type KeyEntry, type KeySet, keysToTry } from './keys.js';
import { kidNamesOtherKey } from './kid-mismatch.js';

export interface DecryptedEnvelope {
  plaintext: Uint8Array;
  /** The kid the envelope names (unauthenticated), if any. */
  kid: string | undefined;
  /** The kid of the key that authenticated it, when the keys were given as a kid=key list. */
  keyKid: string | undefined;
  headerSource: HeaderSource;
  /** The envelope named a kid but a different listed key authenticated it. */
  kidMismatch: boolean;
}

/** The tag's length is public, so naming a wrong one is no oracle; it is the most common sender bug. */
function tagLengthHint(envelopeText: string | undefined): string {
  if (envelopeText === undefined) return '';
  const tag = envelopeText.startsWith('{')
    ? /"tag"\s*:\s*"([^"]*)"/.exec(envelopeText)?.[1]
    : envelopeText.split('.')[4];
  if (tag === undefined) return '';
  const bytes = Math.floor((tag.replace(/=+$/, '').length * 3) / 4);
  if (bytes === TAG_BYTES) return '';
  const likely = bytes === 32 ? ' (most likely the full, untruncated HMAC-SHA-256)' : '';
  return ` Its tag is ${bytes} bytes instead of ${TAG_BYTES}${likely}.`;
}

/**
 * The failure when no key authenticates, with what can safely be said about it. `hint` ends the
 * message with what the caller offers next (the CLI points at `inspect`).
 */
export function decryptionFailedError(keyCount: number, envelopeText?: string, hint?: string): InspectError {
  const tried = `${keyCount > 1 ? ` None of the ${keyCount} keys given authenticated it.` : ''}${tagLengthHint(envelopeText)}`;
  return new InspectError(
    'ERR_JWE_DECRYPTION_FAILED',
    'The envelope did not authenticate: either the key is not the one the sender used, or the envelope ' +
      `was modified or truncated on the way (the two cannot be told apart).${tried}${hint ? ` ${hint}` : ''}`,
  );
}

export interface DecryptWithKeysOptions {
  /** Appended to the message of the failure when no key authenticates. */
  failureHint?: string;
}

/**
 * Decrypts one envelope (flattened JSON text or compact) with the given keys: the key listed under
 * the envelope's kid first, then the others. Only authentication failures move on to the next
 * key; a malformed envelope fails at once, whatever the key.
 */
export async function decryptWithKeys(
  envelopeText: string,
  keys: KeySet,
  options: DecryptWithKeysOptions = {},
): Promise<DecryptedEnvelope> {
  let order: KeyEntry[] = keys.entries;
  // The first attempt goes through a resolver, which is how the codec tells us the envelope's kid.
  const pickFirst = (envelopeKid: string | undefined) => {
    order = keysToTry(keys, envelopeKid);
    return order[0]!.key;
  };
  for (let attempt = 0; attempt < order.length; attempt++) {
    try {
      const result = await decryptDetailed(envelopeText, attempt === 0 ? pickFirst : order[attempt]!.key);
      const used = order[attempt]!;
      return {
        plaintext: result.plaintext,
        kid: result.kid,
        keyKid: used.kid,
        headerSource: result.headerSource,
        kidMismatch: kidNamesOtherKey({ kid: result.kid, keyKid: used.kid }),
      };
    } catch (error) {
      if (!isJweError(error) || error.code !== 'ERR_JWE_DECRYPTION_FAILED') throw error;
    }
  }
  throw decryptionFailedError(keys.entries.length, envelopeText, options.failureHint);
}
