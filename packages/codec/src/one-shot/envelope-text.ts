import { PROTECTED_COMPACT } from '../header.js';
import { TAG_BYTES } from '../sizes.js';

/*
 * The JSON text of an envelope this codec writes, in the bytes `JSON.stringify` gives its object
 * (members in the same order: `kid`, `protected`, `iv`, `ciphertext`, `tag`). Every member but
 * `kid` is base64url, which JSON never escapes, so only `kid` goes through `JSON.stringify`.
 */

/** The text up to the ciphertext's first character. */
export function textBeforeCiphertext(kid: string | undefined, ivText: string): string {
  const kidMember = kid === undefined ? '' : `"kid":${JSON.stringify(kid)},`;
  return `{${kidMember}"protected":"${PROTECTED_COMPACT}","iv":"${ivText}","ciphertext":"`;
}

/** The text after the ciphertext's last character. */
export const textAfterCiphertext = (tagText: string) => `","tag":"${tagText}"}`;

/** The length of `textAfterCiphertext`'s text: a tag of TAG_BYTES is 22 base64url characters. */
export const TEXT_AFTER_CIPHERTEXT_LENGTH = textAfterCiphertext('').length + Math.ceil((TAG_BYTES * 4) / 3);
