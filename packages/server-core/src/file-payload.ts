import { uploadInvalid } from './errors.js';
import { parsePlaintextJson } from './strict-json.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/**
 * Standard, padded, canonical base64 (spec 2.3), checked in one pass over the characters. A
 * regular expression over the whole text overflows V8's stack on strings of a few million
 * characters, which is a file of a few MiB.
 */
export function isStrictBase64(text: string): boolean {
  const length = text.length;
  if (length % 4 !== 0) return false;
  let end = length;
  if (length > 0 && text.charCodeAt(length - 1) === 0x3d /* = */) {
    end--;
    if (text.charCodeAt(length - 2) === 0x3d) end--;
  }
  for (let at = 0; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code > 127 || VALUES[code]! < 0) return false;
  }
  // Canonical: the bits the padding leaves over must be zero, or two texts decode to the same bytes.
  const padding = length - end;
  if (padding > 0) {
    const last = VALUES[text.charCodeAt(end - 1)]!;
    if ((padding === 1 ? last & 0b11 : last & 0b1111) !== 0) return false;
  }
  return true;
}

type BufferLike = { from(text: string, encoding: 'base64'): Uint8Array };

function decodeBase64(text: string): Uint8Array {
  const NodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(text, 'base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The file inside a decrypted payload `{"file": "<standard base64>"}` (spec 2.3). */
export function fileFromPayload(plaintext: Uint8Array, field: string, strictJson: boolean): Uint8Array {
  const shape = `The decrypted body must be {"${field}": "<standard base64 of the file>"}.`;
  let payload: unknown;
  try {
    payload = parsePlaintextJson(plaintext, strictJson);
  } catch {
    throw uploadInvalid(shape);
  }
  const text =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)[field]
      : undefined;
  if (typeof text !== 'string' || !isStrictBase64(text)) throw uploadInvalid(shape);
  return decodeBase64(text);
}
