import type { CryptoBackend, PreparedKey } from './backend/types.js';
import { setBounded } from './bounded-map.js';
import { parseProtectedHeader } from './header.js';
import { type KeyInput, keyBytes } from './key.js';

const CACHE_LIMIT = 64;
/** Longer protected texts are not cached, so the caches stay small whatever peers send. */
const CACHED_TEXT_MAX = 1024;

/**
 * What the codec derives from recurring inputs and keeps for the next call: prepared keys for
 * shared-key strings, parsed protected headers and AAD bytes for protected texts. Each is a small
 * FIFO cache, so memory stays bounded whatever callers send.
 */
export function reusableDerivations(backend: CryptoBackend) {
  // Deriving and importing a key costs more than encrypting 1 KiB; most apps use a handful of
  // shared-key strings, so remember the prepared form of recent ones.
  const preparedByString = new Map<string, PreparedKey | Promise<PreparedKey>>();
  const prepare = (key: KeyInput): PreparedKey | Promise<PreparedKey> => {
    if (typeof key !== 'string') return backend.prepareKey(keyBytes(key));
    let prepared = preparedByString.get(key);
    if (prepared === undefined) {
      prepared = backend.prepareKey(keyBytes(key));
      setBounded(preparedByString, key, prepared, CACHE_LIMIT);
    }
    return prepared;
  };

  // Nearly every envelope carries one of a few protected headers; parsing is cheap but not free at
  // 1 KiB. Only flat headers are kept, so no caller can reach a cached object through a nested value.
  const headersByText = new Map<string, Readonly<Record<string, unknown>>>();
  const protectedHeaderOf = (text: string): Readonly<Record<string, unknown>> => {
    const cached = headersByText.get(text);
    if (cached) return cached;
    const header = parseProtectedHeader(backend.decodeBase64Url(text, 'The "protected" member'));
    const flat = Object.values(header).every((value) => value === null || typeof value !== 'object');
    if (flat && text.length <= CACHED_TEXT_MAX) {
      setBounded(headersByText, text, Object.freeze(header), CACHE_LIMIT);
    }
    return header;
  };
  // Without an "aad" member the AAD is the protected text itself, one of the same few texts; the
  // MAC only reads these bytes, so one copy of each serves every envelope.
  const aadByText = new Map<string, Uint8Array>();
  const aadBytes = (protectedText: string, aad: string | undefined): Uint8Array => {
    if (aad !== undefined) return backend.latin1Bytes(`${protectedText}.${aad}`);
    let bytes = aadByText.get(protectedText);
    if (bytes === undefined) {
      bytes = backend.latin1Bytes(protectedText);
      if (protectedText.length <= CACHED_TEXT_MAX) setBounded(aadByText, protectedText, bytes, CACHE_LIMIT);
    }
    return bytes;
  };

  return { prepare, protectedHeaderOf, aadBytes };
}
