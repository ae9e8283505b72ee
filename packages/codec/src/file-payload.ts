import type { CryptoBackend } from './backend/types.js';
import { invalid, isJweError } from './errors.js';
import { decodeUtf8 } from './header.js';
import { parseStrictJsonObject } from './strict-json.js';

/*
 * An encrypted upload's plaintext is `{"file": "<standard base64 of the bytes>"}`
 * (docs/wire-format.md#file-uploads).
 * We write it without spaces; we read any JSON spelling of it, with a fast path for the common
 * shapes so that multi-megabyte payloads skip JSON.parse.
 */

/** The canonical payload's framing, as every encoder here writes it. */
export const FILE_PREFIX_TEXT = '{"file":"';
export const FILE_SUFFIX_TEXT = '"}';
const PREFIXES = [FILE_PREFIX_TEXT, '{"file": "'];

/** The length of the canonical payload of a file of `fileBytes` bytes. */
export const filePayloadLength = (fileBytes: number) =>
  FILE_PREFIX_TEXT.length + 4 * Math.ceil(fileBytes / 3) + FILE_SUFFIX_TEXT.length;

export function buildFilePayload(backend: CryptoBackend, bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return backend.latin1Bytes(FILE_PREFIX_TEXT, backend.encodeBase64(bytes), FILE_SUFFIX_TEXT);
}

const startsWith = (payload: Uint8Array, text: string, at = 0) => {
  for (let i = 0; i < text.length; i++) if (payload[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

export function parseFilePayload(backend: CryptoBackend, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const end = payload.length - FILE_SUFFIX_TEXT.length;
  for (const prefix of PREFIXES) {
    if (startsWith(payload, prefix) && end >= prefix.length && startsWith(payload, FILE_SUFFIX_TEXT, end)) {
      // Only the member's content becomes a string. Strict base64 has no quote or backslash, so
      // content it accepts is exactly the JSON string's value; anything else (an escape, another
      // member) takes the JSON path below, which also says what is wrong.
      try {
        return backend.decodeBase64(backend.latin1String(payload, prefix.length, end), 'The "file" member');
      } catch (error) {
        if (!isJweError(error)) throw error;
        break;
      }
    }
  }
  const value = parseStrictJsonObject(decodeUtf8(payload, 'The decrypted payload'), 'The decrypted payload', {
    quoteNames: false,
  });
  const names = Object.keys(value);
  if (names.length !== 1 || typeof value.file !== 'string') {
    throw invalid('The decrypted payload is not a file payload: expected exactly {"file": "<base64>"}.');
  }
  return backend.decodeBase64(value.file, 'The "file" member');
}
