import { decodeUtf8 } from '../header.js';

/*
 * A large envelope's text is read without copying its ciphertext out: the text is parsed with the
 * ciphertext's characters cut out (a few hundred bytes of JSON), and the ciphertext is decoded
 * from where it lies. When the characters cut out are all base64url (which the decoder checks),
 * the text is valid JSON exactly when the cut one is, with the same members, the cut member's
 * value being "" there: no quote or backslash was removed, so every other token is unchanged.
 */

const MEMBER = '"ciphertext":"';
const QUOTE = 0x22;
/** Below this the envelope is read whole: its copies are small, and one parse is cheaper. */
export const CIPHERTEXT_RANGE_FROM = 64 * 1024;

/** The envelope text with its ciphertext cut out, and where the ciphertext's characters are. */
export interface CiphertextRange {
  readonly rest: string;
  readonly start: number;
  readonly end: number;
}

function indexOfMember(bytes: Uint8Array): number {
  for (let at = bytes.indexOf(QUOTE); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let i = 1;
    while (i < MEMBER.length && bytes[at + i] === MEMBER.charCodeAt(i)) i++;
    if (i === MEMBER.length) return at;
  }
  return -1;
}

/**
 * The ciphertext's place in `input` (an envelope's JSON text or bytes), or `undefined` where the
 * envelope is to be read whole: a short one, a compact one, one spelt with spaces around the
 * member, and one with a nested object or array (the member found might not be the top-level
 * one). The caller still checks that the cut text's envelope has `"ciphertext": ""`.
 */
export function findCiphertextRange(input: string | Uint8Array): CiphertextRange | undefined {
  if (input.length < CIPHERTEXT_RANGE_FROM) return undefined;
  const text = typeof input === 'string' ? input : undefined;
  const member = text !== undefined ? text.indexOf(MEMBER) : indexOfMember(input as Uint8Array);
  if (member === -1) return undefined;
  const start = member + MEMBER.length;
  const end = text !== undefined ? text.indexOf('"', start) : (input as Uint8Array).indexOf(QUOTE, start);
  if (end === -1) return undefined;
  const rest =
    text !== undefined
      ? text.slice(0, start) + text.slice(end)
      : decodeUtf8((input as Uint8Array).subarray(0, start), 'The envelope') +
        decodeUtf8((input as Uint8Array).subarray(end), 'The envelope');
  const open = rest.indexOf('{');
  if (rest.indexOf('[') !== -1 || rest.indexOf('{', open + 1) !== -1) return undefined;
  return { rest, start, end };
}
