import type { CryptoBackend, PreparedKey } from './backend/types.js';
import { setBounded } from './bounded-map.js';
import { parseProtectedHeader } from './header.js';
import { KEY_BYTES, type KeyInput, keyBytes } from './key.js';

const CACHE_LIMIT = 64;
/** Longer protected texts are not cached, so the caches stay small whatever peers send. */
const CACHED_TEXT_MAX = 1024;

/**
 * What the codec derives from recurring inputs and keeps for the next call: prepared keys, parsed
 * protected headers and AAD bytes for protected texts. Each is a small FIFO cache, so memory stays
 * bounded whatever callers send.
 */
export function reusableDerivations(backend: CryptoBackend) {
  // Preparing a key (deriving it, creating its cipher) costs more than encrypting 1 KiB; most apps
  // use a handful of keys, so remember the prepared form of recent ones. Raw keys (keyrings hold
  // them) are remembered by their content, not their identity: a caller may refill an array.
  const preparedByString = new Map<string, PreparedKey | Promise<PreparedKey>>();
  const preparedByBytes = new Map<string, PreparedKey | Promise<PreparedKey>>();
  const prepare = (key: KeyInput): PreparedKey | Promise<PreparedKey> => {
    const byString = typeof key === 'string';
    const id = byString
      ? key
      : key instanceof Uint8Array && key.length === KEY_BYTES
        ? backend.latin1String(key)
        : undefined;
    // Anything else is not a key: keyBytes says why.
    if (id === undefined) return backend.prepareKey(keyBytes(key));
    const cache = byString ? preparedByString : preparedByBytes;
    let prepared = cache.get(id);
    if (prepared === undefined) {
      prepared = backend.prepareKey(keyBytes(key));
      setBounded(cache, id, prepared, CACHE_LIMIT);
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
