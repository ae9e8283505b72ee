import { Buffer } from 'node:buffer';
import { uploadInvalid } from '../errors.js';
import { isStrictBase64 } from '../file-payload.js';

/*
 * A decrypted upload is nearly always the canonical `{"<field>":"<standard base64>"}`. Its file is
 * decoded inside the plaintext's own memory, a piece at a time, rather than as a string of the
 * whole base64 parsed out of a string of the whole payload: that way the file costs no memory
 * beyond the plaintext it came in.
 */

const PIECE_CHARS = 4 * 16 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The file of a canonical payload, decoded within `plaintext` (which the caller hands over), or
 * `undefined` for any other spelling, which `fileFromPayload` reads instead. Content with no quote
 * and no backslash between the canonical framing is exactly the JSON string's value, so strict
 * base64 decides it alone: the outcome is the one `fileFromPayload` gives, the same file or the
 * same error.
 */
export function fileWithinPayload(plaintext: Uint8Array, field: string): Uint8Array | undefined {
  const bytes = Buffer.from(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength);
  const prefix = `{${JSON.stringify(field)}:"`;
  const start = prefix.length;
  const end = bytes.length - 2;
  if (
    end < start ||
    bytes.toString('latin1', 0, start) !== prefix ||
    bytes[end] !== QUOTE ||
    bytes[end + 1] !== 0x7d /* } */ ||
    bytes.indexOf(QUOTE, start) !== end ||
    bytes.subarray(start, end).includes(BACKSLASH)
  ) {
    return undefined;
  }
  const shape = `The decrypted body must be {"${field}": "<standard base64 of the file>"}.`;
  if ((end - start) % 4 !== 0) throw uploadInvalid(shape);
  let written = 0;
  for (let at = start; at < end; at += PIECE_CHARS) {
    const stop = Math.min(end, at + PIECE_CHARS);
    const text = bytes.toString('latin1', at, stop);
    // Padding may only end the whole text; the last piece's strict check covers its place there.
    if (!isStrictBase64(text) || (stop < end && text.includes('='))) throw uploadInvalid(shape);
    written += bytes.write(text, written, 'base64');
  }
  return bytes.subarray(0, written);
}
