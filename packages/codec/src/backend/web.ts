import { setBounded } from '../bounded-map.js';
import { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from '../encoding/portable-base64.js';
import type { CryptoBackend, PreparedKey } from './types.js';

interface WebKey extends PreparedKey {
  readonly macKey: CryptoKey;
  readonly encKey: CryptoKey;
}

function subtle(): SubtleCrypto {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new Error('WebCrypto (globalThis.crypto.subtle) is not available in this runtime.');
  return api;
}

// importKey is asynchronous and comparatively slow; a small cache keeps repeated calls cheap.
const KEY_CACHE_LIMIT = 64;
const keyCache = new Map<string, Promise<WebKey>>();

function cacheId(key: Uint8Array): string {
  let id = '';
  for (const byte of key) id += String.fromCharCode(byte);
  return id;
}

async function importKey(key: Uint8Array): Promise<WebKey> {
  const [macKey, encKey] = await Promise.all([
    subtle().importKey('raw', key.slice(0, 16), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    subtle().importKey('raw', key.slice(16, 32), { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']),
  ]);
  return { macKey, encKey };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const utf8 = new TextEncoder();
// ignoreBOM: a leading byte-order mark stays in the text, where base64 refuses it.
const ascii = new TextDecoder('utf-8', { ignoreBOM: true });
const windows1252 = new TextDecoder('latin1');

export const webBackend: CryptoBackend = {
  name: 'webcrypto',
  prepareKey(key) {
    const id = cacheId(key);
    let prepared = keyCache.get(id);
    if (!prepared) {
      prepared = importKey(key);
      setBounded(keyCache, id, prepared, KEY_CACHE_LIMIT);
      prepared.catch(() => keyCache.delete(id));
    }
    return prepared;
  },
  randomBytes: (length) => globalThis.crypto.getRandomValues(new Uint8Array(length)),
  async hmacSha256(key, parts) {
    const mac = await subtle().sign('HMAC', (key as WebKey).macKey, concat(parts) as Uint8Array<ArrayBuffer>);
    return new Uint8Array(mac);
  },
  async aesCbcEncrypt(key, iv, plaintext) {
    const params = { name: 'AES-CBC', iv: iv as Uint8Array<ArrayBuffer> };
    return new Uint8Array(
      await subtle().encrypt(params, (key as WebKey).encKey, plaintext as Uint8Array<ArrayBuffer>),
    );
  },
  async aesCbcDecrypt(key, iv, ciphertext) {
    const params = { name: 'AES-CBC', iv: iv as Uint8Array<ArrayBuffer> };
    return new Uint8Array(
      await subtle().decrypt(params, (key as WebKey).encKey, ciphertext as Uint8Array<ArrayBuffer>),
    );
  },
  constantTimeEqual(a, b) {
    if (a.length !== b.length) return false;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
    return diff === 0;
  },
  encodeBase64Url,
  decodeBase64Url,
  encodeBase64,
  decodeBase64,
  decodeBase64Within(bytes, start, end, what) {
    // Base64 is ASCII, which UTF-8 decoding reads several times faster than Latin-1 decoding and
    // into the same text. Bytes past 0x7F read as other characters that no alphabet has, so the
    // decode fails, and the Latin-1 reading then gives the error it always gave.
    const region = bytes.subarray(start, end);
    try {
      return decodeBase64(ascii.decode(region), what);
    } catch {
      return decodeBase64(windows1252.decode(region), what);
    }
  },
  decodesWithinInPlace: false,
  decodeBase64UrlRange(input, start, end, what) {
    // A slice of a string shares its characters in the engines we know; bytes become a string.
    const text =
      typeof input === 'string' ? input.slice(start, end) : webBackend.latin1String(input, start, end);
    return decodeBase64Url(text, what);
  },
  includesByte: (bytes, byte) => bytes.includes(byte),
  latin1Bytes(...texts) {
    let length = 0;
    for (const text of texts) length += text.length;
    const out = new Uint8Array(length);
    let offset = 0;
    for (const text of texts) {
      // ASCII, all these texts hold in practice, is the same bytes in UTF-8, which the runtime
      // writes natively; encodeInto shows when a text was not (it wrote more than it read).
      const { read, written } = utf8.encodeInto(text, out.subarray(offset));
      if (read !== text.length || written !== text.length) {
        for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
      }
      offset += text.length;
    }
    return out;
  },
  latin1String(bytes, start = 0, end = bytes.length) {
    // The Encoding standard maps 'latin1' to windows-1252, which differs from Latin-1 only in
    // 0x80-0x9F. Callers use this for ASCII payloads, where any non-ASCII byte is an error anyway.
    return windows1252.decode(bytes.subarray(start, end));
  },
  utf8Bytes: (text) => utf8.encode(text),
};
