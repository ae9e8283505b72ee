import { Buffer, constants as bufferConstants } from 'node:buffer';
import {
  type Cipher,
  createCipheriv,
  createDecipheriv,
  type Decipher,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto';
import {
  decodeBase64,
  decodeBase64Url,
  decodeBase64Within,
  encodeBase64,
  encodeBase64Url,
  toBuffer,
} from '../encoding/node-base64.js';
import { paddedLength, unpad } from '../pkcs7.js';
import { type HmacState, hmacSha256 } from './node-hmac.js';
import type { CryptoBackend, PreparedKey, SyncPrimitives } from './types.js';

interface NodeKey extends PreparedKey, HmacState {
  readonly macKey: Buffer;
  readonly encKey: Buffer;
  chain?: CbcChain;
  unchain?: CbcUnchain;
}

/*
 * Creating a Cipheriv costs more than encrypting a 1 KiB body with it. For small messages we keep
 * one CBC cipher per key and never finalize it: after each message its chaining value is the last
 * ciphertext block, so XORing the first plaintext block with (previous last block XOR fresh IV)
 * makes it encrypt exactly CBC(key, IV, plaintext). Padding is applied here (PKCS#7).
 */
interface CbcChain {
  readonly cipher: Cipher;
  readonly last: Buffer;
}

/*
 * The same idea for decryption: a never-finalized decipher whose chaining value is the last
 * ciphertext block it was fed. Its first output block is D(C1) XOR previous last block; XORing in
 * (previous last block XOR IV) gives CBC's D(C1) XOR IV. Input is always whole blocks (checked by
 * the caller), so the decipher never holds bytes back between messages.
 */
interface CbcUnchain {
  readonly decipher: Decipher;
  readonly last: Buffer;
}

const CHAINED_MAX_BYTES = 64 * 1024;

function chainedCbcDecrypt(key: NodeKey, iv: Uint8Array, ciphertext: Uint8Array): Buffer<ArrayBuffer> {
  key.unchain ??= {
    decipher: createDecipheriv('aes-128-cbc', key.encKey, Buffer.alloc(16)).setAutoPadding(false),
    last: Buffer.alloc(16),
  };
  const { decipher, last } = key.unchain;
  const output = decipher.update(ciphertext);
  for (let i = 0; i < 16; i++) output[i] = output[i]! ^ iv[i]! ^ last[i]!;
  last.set(ciphertext.subarray(ciphertext.length - 16));
  return output;
}

/** `length` is the plaintext's length in bytes; text is written as UTF-8 straight into the padded blocks. */
function chainedCbcEncrypt(
  key: NodeKey,
  iv: Uint8Array,
  plaintext: Uint8Array | string,
  length: number,
): Buffer<ArrayBuffer> {
  key.chain ??= {
    cipher: createCipheriv('aes-128-cbc', key.encKey, Buffer.alloc(16)).setAutoPadding(false),
    last: Buffer.alloc(16),
  };
  const { cipher, last } = key.chain;
  const pad = 16 - (length % 16);
  const input = Buffer.allocUnsafe(length + pad);
  if (typeof plaintext === 'string') input.write(plaintext, 0, 'utf8');
  else input.set(plaintext, 0);
  input.fill(pad, length);
  for (let i = 0; i < 16; i++) input[i] = input[i]! ^ iv[i]! ^ last[i]!;
  const output = cipher.update(input);
  output.copy(last, 0, output.length - 16);
  return output;
}

/*
 * Large ciphertexts are decrypted a piece at a time, each piece's output copied back over the
 * piece it came from (the decipher keeps the chaining block itself, so its input may be
 * overwritten once fed). One update() over the whole input would need an output as large, and
 * Node allocates a block more than it returns and then shrinks it, which can briefly hold a third
 * copy; a piece's output is garbage as soon as it is copied. `blocks` is whole blocks and padding
 * is off, so each update() returns exactly as much as it was given and final() returns nothing.
 */
const CBC_PIECE_BYTES = 256 * 1024;

function decryptWithin(decipher: Decipher, blocks: Uint8Array): Buffer<ArrayBuffer> {
  const out = toBuffer(blocks) as Buffer<ArrayBuffer>;
  for (let at = 0; at < out.length; at += CBC_PIECE_BYTES) {
    decipher.update(out.subarray(at, at + CBC_PIECE_BYTES)).copy(out, at);
  }
  decipher.final();
  return out;
}

// randomBytes(16) costs a few microseconds per call; drawing IVs from a refilled pool of CSPRNG
// output costs almost nothing, and every byte is still used once only. A refill allocates a new
// pool rather than overwriting the old one, so the views handed out never change under a caller.
const POOL_BYTES = 4096;
let pool: Buffer<ArrayBuffer> = Buffer.alloc(0);
let poolOffset = 0;

function pooledRandomBytes(length: number): Buffer<ArrayBuffer> {
  if (length > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(length));
  if (poolOffset + length > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + length);
  poolOffset += length;
  return out;
}

const syncPrimitives: SyncPrimitives = {
  hmacSha256: (key, parts) => hmacSha256(key as NodeKey, parts),
  aesCbcEncrypt(key, iv, plaintext) {
    const length = typeof plaintext === 'string' ? Buffer.byteLength(plaintext, 'utf8') : plaintext.length;
    if (length <= CHAINED_MAX_BYTES) return chainedCbcEncrypt(key as NodeKey, iv, plaintext, length);
    const cipher = createCipheriv('aes-128-cbc', (key as NodeKey).encKey, iv);
    const head = cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext);
    const tail = cipher.final();
    return tail.length === 0 ? head : Buffer.concat([head, tail], head.length + tail.length);
  },
  aesCbcEncryptPieces(key, iv, pieces, length) {
    if (length <= CHAINED_MAX_BYTES) return syncPrimitives.aesCbcEncrypt(key, iv, [...pieces].join(''));
    const out = Buffer.allocUnsafe(paddedLength(length));
    const cipher = createCipheriv('aes-128-cbc', (key as NodeKey).encKey, iv);
    let written = 0;
    for (const piece of pieces) written += cipher.update(piece, 'latin1').copy(out, written);
    written += cipher.final().copy(out, written);
    if (written !== out.length)
      throw new RangeError('aesCbcEncryptPieces: the pieces are not `length` bytes.');
    return out;
  },
  aesCbcDecrypt(key, iv, ciphertext) {
    if (ciphertext.length <= CHAINED_MAX_BYTES && ciphertext.length % 16 === 0 && ciphertext.length > 0) {
      return unpad(chainedCbcDecrypt(key as NodeKey, iv, ciphertext));
    }
    // Unpadding ourselves avoids the copy that joining update() and final() output would cost.
    const decipher = createDecipheriv('aes-128-cbc', (key as NodeKey).encKey, iv).setAutoPadding(false);
    return unpad(decryptWithin(decipher, ciphertext));
  },
};

/*
 * node:crypto does the work synchronously in OpenSSL, which for envelopes up to a few MiB is much
 * faster than WebCrypto's thread-pool round trips. The async methods share WebCrypto's contract;
 * `sync` is what the codec calls on Node.
 */
export const nodeBackend: CryptoBackend = {
  name: 'node',
  maxStringLength: bufferConstants.MAX_STRING_LENGTH,
  prepareKey(key) {
    const bytes = Buffer.from(key);
    return { macKey: bytes.subarray(0, 16), encKey: bytes.subarray(16, 32) } satisfies NodeKey;
  },
  randomBytes: pooledRandomBytes,
  sync: syncPrimitives,
  async hmacSha256(key, parts) {
    return syncPrimitives.hmacSha256(key, parts);
  },
  async aesCbcEncrypt(key, iv, plaintext) {
    return syncPrimitives.aesCbcEncrypt(key, iv, plaintext);
  },
  async aesCbcDecrypt(key, iv, ciphertext) {
    return syncPrimitives.aesCbcDecrypt(key, iv, ciphertext);
  },
  constantTimeEqual: (a, b) => a.length === b.length && timingSafeEqual(a, b),
  encodeBase64Url,
  decodeBase64Url,
  encodeBase64,
  decodeBase64,
  decodeBase64Within,
  includesByte: (bytes, byte) => toBuffer(bytes).includes(byte),
  latin1Bytes(...texts) {
    if (texts.length === 1) return Buffer.from(texts[0]!, 'latin1');
    // Writing the parts into one buffer avoids flattening a large concatenated string first.
    let length = 0;
    for (const text of texts) length += text.length;
    const out = Buffer.allocUnsafe(length);
    let offset = 0;
    for (const text of texts) offset += out.write(text, offset, 'latin1');
    return out;
  },
  latin1String: (bytes, start = 0, end = bytes.length) => toBuffer(bytes).toString('latin1', start, end),
  utf8Bytes: (text) => Buffer.from(text, 'utf8'),
};
