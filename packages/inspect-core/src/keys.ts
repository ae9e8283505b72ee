import { deriveKey, SHARED_KEY_BYTES } from '@jwe-transport/codec';
import { sha256Hex } from './digest.js';
import { InspectError } from './errors.js';

/** One usable key: the 32-byte A128CBC-HS256 key and the kid it was listed under, if any. */
export interface KeyEntry {
  kid: string | undefined;
  key: Uint8Array;
}

export interface KeySet {
  entries: KeyEntry[];
  /** Where the keys came from, for messages ("--key-file keys.txt", "the Keys field"); never the key itself. */
  source: string;
  /** Things worth telling the user about the keys, such as a key given already doubled. */
  notices: string[];
}

const utf8 = new TextEncoder();

function keyError(message: string): InspectError {
  return new InspectError('ERR_KEY_INVALID', message);
}

/**
 * The 32-byte key for one shared-key string. A 32-byte string whose halves are equal is the key
 * already doubled (people copy it from code that builds it); it is used as it is.
 */
function keyFromText(text: string, label: string, notices: string[]): Uint8Array {
  const bytes = utf8.encode(text);
  if (bytes.length === SHARED_KEY_BYTES) return deriveKey(text);
  const half = text.slice(0, text.length / 2);
  if (bytes.length === 2 * SHARED_KEY_BYTES && `${half}${half}` === text) {
    notices.push(`${label} is already doubled (32 bytes); using it as the 32-byte key.`);
    return bytes;
  }
  throw keyError(
    `${label} is ${bytes.length} bytes of UTF-8; a shared key is exactly ${SHARED_KEY_BYTES} bytes ` +
      '(for example 16 ASCII characters). Check for a missing character or stray quotes.',
  );
}

function parseEntry(text: string, label: string, notices: string[]): KeyEntry {
  const equals = text.indexOf('=');
  if (equals <= 0) return { kid: undefined, key: keyFromText(text, label, notices) };
  const kid = text.slice(0, equals).trim();
  // The label leaves the kid out: in a malformed entry the part before "=" may be key material.
  return { kid, key: keyFromText(text.slice(equals + 1), label, notices) };
}

/**
 * Reads a key text: a single shared key, or a `kid=key` list separated by newlines or commas.
 * A line that is exactly one key is taken whole, so keys containing `=` or `,` still work alone
 * on a line. Blank lines and lines starting with `#` are ignored.
 */
export function parseKeyText(raw: string, source: string): KeySet {
  const notices: string[] = [];
  const text = raw.replace(/^\uFEFF/, '').replace(/[\r\n]+$/, '');
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (lines.length === 0) throw keyError(`${source} is empty: it should hold the 16-character shared key.`);
  const single = lines.length === 1 ? utf8.encode(lines[0]!).length : 0;
  if (single === SHARED_KEY_BYTES) {
    return { entries: [{ kid: undefined, key: deriveKey(lines[0]!) }], source, notices };
  }
  const pieces: string[] = [];
  for (const line of lines) {
    if (line.includes(',') && !looksLikeOneEntry(line)) pieces.push(...line.split(','));
    else pieces.push(line);
  }
  const entries = pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .map((piece, i) =>
      parseEntry(piece, pieces.length === 1 ? `The key in ${source}` : `Key ${i + 1} in ${source}`, notices),
    );
  const seen = new Set<string | undefined>();
  for (const entry of entries) {
    if (seen.has(entry.kid)) {
      throw keyError(
        entry.kid === undefined
          ? `${source} lists more than one key without a kid; write them as kid=key.`
          : `${source} lists kid "${entry.kid}" twice.`,
      );
    }
    seen.add(entry.kid);
  }
  return { entries, source, notices };
}

function looksLikeOneEntry(line: string): boolean {
  const equals = line.indexOf('=');
  return equals > 0 && utf8.encode(line.slice(equals + 1)).length === SHARED_KEY_BYTES;
}

/**
 * The keys to try for an envelope, best first. The kid is not authenticated, so a debugging tool
 * may try the others when the named key fails; the caller reports a mismatch.
 */
export function keysToTry(keys: KeySet, kid: string | undefined): KeyEntry[] {
  const named = kid === undefined ? undefined : keys.entries.find((entry) => entry.kid === kid);
  return named ? [named, ...keys.entries.filter((entry) => entry !== named)] : keys.entries;
}

/**
 * A short name for a key that people can compare ("is this the staging key?") without seeing it:
 * the first 8 hex digits of SHA-256 over a fixed label and the 32-byte key. The label keeps it
 * from being a plain hash of the key, and 32 bits are enough to tell a handful of keys apart
 * while saying too little to confirm a guessed key with any confidence.
 */
export async function keyFingerprint(key: Uint8Array): Promise<string> {
  const label = new TextEncoder().encode('jwe-transport key fingerprint v1\n');
  const input = new Uint8Array(label.length + key.length);
  input.set(label);
  input.set(key, label.length);
  return (await sha256Hex(input)).slice(0, 8);
}
