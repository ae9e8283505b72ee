import type { CryptoBackend, PreparedKey, SyncPrimitives } from './backend/types.js';
import { decryptionFailed } from './errors.js';

/*
 * AES_128_CBC_HMAC_SHA_256 (RFC 7518 section 5.2.2): the 32-byte key is MAC_KEY (first 16 bytes)
 * followed by ENC_KEY (last 16). The tag is the first 16 bytes of
 * HMAC-SHA-256(MAC_KEY, AAD || IV || ciphertext || AL), AL being the AAD length in bits as a
 * 64-bit big-endian integer.
 */

import { TAG_BYTES } from './sizes.js';

let lastAadLength = -1;
let lastAadLengthBlock = new Uint8Array(8);

/** AL: the AAD length in bits, 64-bit big-endian. Split in two words so lengths past 2^29 bytes stay exact. */
export function aadLengthBlock(aadLength: number): Uint8Array {
  // Nearly every envelope has the same header length; HMAC only reads the block, so reuse it.
  if (aadLength === lastAadLength) return lastAadLengthBlock;
  const block = new Uint8Array(8);
  const view = new DataView(block.buffer);
  view.setUint32(0, Math.floor(aadLength / 0x20000000));
  view.setUint32(4, (aadLength % 0x20000000) * 8);
  lastAadLength = aadLength;
  lastAadLengthBlock = block;
  return block;
}

async function computeTag(
  backend: CryptoBackend,
  key: PreparedKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const mac = await backend.hmacSha256(key, [aad, iv, ciphertext, aadLengthBlock(aad.length)]);
  return mac.subarray(0, TAG_BYTES);
}

export async function seal(
  backend: CryptoBackend,
  key: PreparedKey,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): Promise<{ ciphertext: Uint8Array; tag: Uint8Array }> {
  const ciphertext = await backend.aesCbcEncrypt(key, iv, plaintext);
  const tag = await computeTag(backend, key, aad, iv, ciphertext);
  return { ciphertext, tag };
}

/** `computeTag` without a promise, for back ends that have synchronous primitives. */
export function computeTagSync(
  sync: SyncPrimitives,
  key: PreparedKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Uint8Array {
  return sync.hmacSha256(key, [aad, iv, ciphertext, aadLengthBlock(aad.length)]).subarray(0, TAG_BYTES);
}

/** `seal` without a promise, for back ends that have synchronous primitives; text is sealed as UTF-8. */
export function sealSync(
  sync: SyncPrimitives,
  key: PreparedKey,
  iv: Uint8Array,
  plaintext: Uint8Array | string,
  aad: Uint8Array,
): { ciphertext: Uint8Array; tag: Uint8Array } {
  const ciphertext = sync.aesCbcEncrypt(key, iv, plaintext);
  return { ciphertext, tag: computeTagSync(sync, key, aad, iv, ciphertext) };
}

/** `sealSync` of a plaintext given as ASCII pieces (`length` bytes in all), fed to the cipher in turn. */
export function sealPiecesSync(
  sync: SyncPrimitives,
  key: PreparedKey,
  iv: Uint8Array,
  pieces: Iterable<string>,
  length: number,
  aad: Uint8Array,
): { ciphertext: Uint8Array; tag: Uint8Array } {
  const ciphertext = sync.aesCbcEncryptPieces(key, iv, pieces, length);
  return { ciphertext, tag: computeTagSync(sync, key, aad, iv, ciphertext) };
}

/** `open` without a promise, for back ends that have synchronous primitives. Same order, same one error. */
export function openSync(
  backend: CryptoBackend,
  sync: SyncPrimitives,
  key: PreparedKey,
  aads: readonly Uint8Array[],
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): { plaintext: Uint8Array<ArrayBuffer>; aadIndex: number } {
  let aadIndex = -1;
  for (let i = 0; tag.length === TAG_BYTES && aadIndex < 0 && i < aads.length; i++) {
    const expected = computeTagSync(sync, key, aads[i]!, iv, ciphertext);
    if (backend.constantTimeEqual(expected, tag)) aadIndex = i;
  }
  if (aadIndex < 0 || !isWholeBlocks(ciphertext)) throw decryptionFailed();
  try {
    return { plaintext: sync.aesCbcDecrypt(key, iv, ciphertext), aadIndex };
  } catch {
    throw decryptionFailed();
  }
}

function isWholeBlocks(ciphertext: Uint8Array): boolean {
  return ciphertext.length > 0 && ciphertext.length % 16 === 0;
}

/** True when `tag` authenticates the ciphertext under one of the AAD candidates; returns which one. */
async function verify(
  backend: CryptoBackend,
  key: PreparedKey,
  aads: readonly Uint8Array[],
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Promise<number> {
  // A wrong-length tag is an authentication failure like any other, decided without a RangeError.
  if (tag.length !== TAG_BYTES) return -1;
  for (let i = 0; i < aads.length; i++) {
    const expected = await computeTag(backend, key, aads[i]!, iv, ciphertext);
    if (backend.constantTimeEqual(expected, tag)) return i;
  }
  return -1;
}

/**
 * Verifies the tag, in constant time, and only then decrypts. Padding errors after a valid tag
 * raise the same error as a bad tag, so no caller can tell them apart.
 */
export async function open(
  backend: CryptoBackend,
  key: PreparedKey,
  aads: readonly Uint8Array[],
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Promise<{ plaintext: Uint8Array<ArrayBuffer>; aadIndex: number }> {
  const aadIndex = await verify(backend, key, aads, iv, ciphertext, tag);
  if (aadIndex < 0 || !isWholeBlocks(ciphertext)) throw decryptionFailed();
  try {
    return { plaintext: await backend.aesCbcDecrypt(key, iv, ciphertext), aadIndex };
  } catch {
    throw decryptionFailed();
  }
}
