import { Buffer } from 'node:buffer';
import * as nodeCrypto from 'node:crypto';

/*
 * HMAC-SHA-256 for node:crypto. Since Node 22 a createHmac() costs several times more than hashing
 * a 1 KiB message (each call fetches the MAC from OpenSSL's provider anew), while the one-shot
 * crypto.hash() does not. For small messages we therefore compute HMAC from its definition
 * (RFC 2104): SHA-256((K ^ opad) || SHA-256((K ^ ipad) || message)), with the padded keys made once
 * per key. Large messages keep createHmac: there the per-call cost is nothing next to the hashing,
 * and the definition would need the message copied behind the padded key.
 */

const BLOCK = 64;
const DIGEST = 32;
/** Up to this many message bytes, copying them once behind the padded key is cheaper than createHmac. */
const ONE_SHOT_MAX_BYTES = 16 * 1024;

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'binary') => string;
// crypto.hash arrived in Node 20.12; older Node 20 releases keep createHmac for every size.
// (@types/node 20 does not declare it.)
const hash = (nodeCrypto as unknown as { hash?: OneShotHash }).hash;

/** Per-key state. Reused between calls: everything here runs synchronously, start to end. */
export interface HmacState {
  readonly macKey: Buffer;
  /** (K ^ ipad), then room for the message. */
  inner?: Buffer;
  /** (K ^ opad), then the inner digest. */
  outer?: Buffer;
}

function padded(key: Buffer, pad: number, room: number): Buffer {
  const block = Buffer.alloc(BLOCK + room, 0);
  block.fill(pad, 0, BLOCK);
  for (let i = 0; i < key.length; i++) block[i] = block[i]! ^ key[i]!;
  return block;
}

function viaCreateHmac(macKey: Buffer, parts: readonly Uint8Array[]): Buffer<ArrayBuffer> {
  const hmac = nodeCrypto.createHmac('sha256', macKey);
  for (const part of parts) hmac.update(part);
  // As a string the digest is copied into Buffer's shared pool; as a Buffer it would get a
  // backing store of its own, which costs more than the rest of a small message's MAC.
  return Buffer.from(hmac.digest('binary'), 'latin1'); // 'binary' is Latin-1
}

/** HMAC-SHA-256 of the concatenated `parts` under `state.macKey` (at most 64 bytes). */
export function hmacSha256(state: HmacState, parts: readonly Uint8Array[]): Buffer<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  if (hash === undefined || length > ONE_SHOT_MAX_BYTES) return viaCreateHmac(state.macKey, parts);
  // Grown to the largest message seen (in KiB steps), so a key made for one call costs no more.
  if (state.inner === undefined || state.inner.length < BLOCK + length) {
    state.inner = padded(state.macKey, 0x36, Math.min(ONE_SHOT_MAX_BYTES, Math.ceil(length / 1024) * 1024));
  }
  state.outer ??= padded(state.macKey, 0x5c, DIGEST);
  const { inner, outer } = state;
  let offset = BLOCK;
  for (const part of parts) {
    inner.set(part, offset);
    offset += part.length;
  }
  outer.write(hash('sha256', inner.subarray(0, offset), 'binary'), BLOCK, 'latin1');
  return Buffer.from(hash('sha256', outer, 'binary'), 'latin1');
}
