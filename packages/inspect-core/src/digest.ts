import { ownBytes, toHex } from './bytes.js';

/** SHA-256 as lowercase hex, through WebCrypto (so the engine needs no Node built-in). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', ownBytes(bytes))));
}
