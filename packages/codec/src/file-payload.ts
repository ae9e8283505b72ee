import type { CryptoBackend } from './backend/types.js';
import { invalid } from './errors.js';
import { decodeUtf8 } from './header.js';
import { parseStrictJsonObject } from './strict-json.js';

/*
 * An encrypted upload's plaintext is `{"file": "<standard base64 of the bytes>"}` (spec 2.3).
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

export function parseFilePayload(backend: CryptoBackend, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const text = backend.latin1String(payload);
  for (const prefix of PREFIXES) {
    if (text.startsWith(prefix) && text.endsWith(FILE_SUFFIX_TEXT)) {
      const body = text.slice(prefix.length, text.length - FILE_SUFFIX_TEXT.length);
      if (body.indexOf('"') === -1 && body.indexOf('\\') === -1) {
        return backend.decodeBase64(body, 'The "file" member', true);
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
