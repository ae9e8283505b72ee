import type { CryptoBackend } from './backend/types.js';
import { invalid } from './errors.js';
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

/** The canonical payload of `bytes` as one byte array (for back ends without synchronous crypto). */
export function buildFilePayload(backend: CryptoBackend, bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return backend.latin1Bytes(FILE_PREFIX_TEXT, backend.encodeBase64(bytes), FILE_SUFFIX_TEXT);
}

/** Bytes per piece of base64: 64 KiB of text, a whole number of quads, small enough to die young. */
const PIECE_BYTES = 3 * 16 * 1024;

/**
 * The canonical payload of `bytes` as a sequence of short texts, to be fed to a cipher one at a
 * time: no string or buffer as long as the whole payload is ever made, and each piece's string,
 * allocated between two cipher calls, lets the young generation's collections free the previous
 * calls' outputs as encryption goes.
 */
export function* filePayloadPieces(backend: CryptoBackend, bytes: Uint8Array): Generator<string> {
  yield FILE_PREFIX_TEXT;
  for (let start = 0; start < bytes.length; start += PIECE_BYTES) {
    yield backend.encodeBase64(bytes.subarray(start, start + PIECE_BYTES));
  }
  yield FILE_SUFFIX_TEXT;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const startsWith = (payload: Uint8Array, text: string, at = 0) => {
  for (let i = 0; i < text.length; i++) if (payload[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/**
 * The file in a decrypted payload. The common shapes are decoded inside `payload`'s own memory,
 * which the caller hands over (it is the decrypted buffer, used for nothing else).
 */
export function parseFilePayload(backend: CryptoBackend, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const end = payload.length - FILE_SUFFIX_TEXT.length;
  for (const prefix of PREFIXES) {
    if (startsWith(payload, prefix) && end >= prefix.length && startsWith(payload, FILE_SUFFIX_TEXT, end)) {
      // Content with no quote and no backslash is exactly the JSON string's value (no escape, no
      // other member), so strict base64 decides it alone (what JSON would refuse there, a control
      // character or a byte past 0x7F, is not base64 either). Anything else (an escaped "\/", another member) takes the JSON path below, which also says
      // what is wrong; it needs the payload intact, so it is checked before decoding overwrites it.
      const content = payload.subarray(prefix.length, end);
      const plain = () => !backend.includesByte(content, QUOTE) && !backend.includesByte(content, BACKSLASH);
      if (!backend.decodesWithinInPlace) {
        // The payload survives a failed decode here, so the scans for a quote or a backslash
        // (which no base64 has) are needed only to choose the error.
        try {
          return backend.decodeBase64Within(payload, prefix.length, end, 'The "file" member');
        } catch (error) {
          if (plain()) throw error;
          break;
        }
      }
      if (plain()) return backend.decodeBase64Within(payload, prefix.length, end, 'The "file" member');
      break;
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
