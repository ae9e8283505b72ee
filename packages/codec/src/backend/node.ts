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
  checkBase64UrlRange,
  decodeBase64,
  decodeBase64Url,
  decodeBase64UrlRange,
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
  if (out.length > TEXT_OUTPUT_FROM) return decryptWithinByText(decipher, out);
  for (let at = 0; at < out.length; at += CBC_PIECE_BYTES) {
    decipher.update(out.subarray(at, at + CBC_PIECE_BYTES)).copy(out, at);
  }
  decipher.final();
  return out;
}

/*
 * Every update() output is a buffer of its own, freed only when a garbage collection finds it,
 * and nothing else here allocates on the JS heap to prompt one: a large ciphertext's pieces all
 * stay in memory until V8's external-memory limit (64 MiB) is passed, as much again as the
 * ciphertext. Taken as Latin-1 strings, the outputs fill the young generation instead, whose
 * collections free them (and the buffers behind them) as decryption goes, for two more memory
 * copies per byte.
 */
const TEXT_OUTPUT_FROM = 1024 * 1024;
const TEXT_PIECE_BYTES = 64 * 1024;

function decryptWithinByText(decipher: Decipher, out: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  for (let at = 0; at < out.length; at += TEXT_PIECE_BYTES) {
    out.write(decipher.update(out.subarray(at, at + TEXT_PIECE_BYTES), undefined, 'latin1'), at, 'latin1');
  }
  decipher.final();
  return out;
}

/**
 * A scratch buffer of `length` bytes whose memory `release()` gives back at once, where the runtime
 * has resizable ArrayBuffers (Node 20 and later), instead of at the next garbage collection.
 */
function releasableBuffer(length: number): { bytes: Buffer; release(): void } {
  const memory = new ResizableArrayBuffer(length, { maxByteLength: length });
  const bytes = Buffer.from(memory, 0, length);
  return { bytes, release: () => memory.resize?.(0) };
}

// ES2024's resizable ArrayBuffer, which the project's ES2023 lib does not declare.
type MaybeResizable = ArrayBuffer & { resize?(length: number): void };
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  length: number,
  options: { maxByteLength: number },
) => MaybeResizable;

/**
 * Writes `base64url(ciphertext) + after(ciphertext)` into `out` from `textStart`, `out` being
 * exactly as long as that. The ciphertext is written at the end of `out` and encoded forward in
 * place: base64url output runs ahead of its input by a third of what has been read, and the
 * ciphertext starts a third of its length past the text's start, so the output never reaches
 * bytes still to be read.
 */
function encryptPiecesToTextIn(
  out: Buffer,
  textStart: number,
  key: PreparedKey,
  iv: Uint8Array,
  pieces: Iterable<string>,
  length: number,
  afterLength: number,
  after: (ciphertext: Uint8Array) => string,
): void {
  const cipherLength = paddedLength(length);
  const cipherStart = out.length - afterLength - cipherLength;
  const cipher = createCipheriv('aes-128-cbc', (key as NodeKey).encKey, iv);
  let written = cipherStart;
  for (const piece of pieces) written += cipher.update(piece, 'latin1').copy(out, written);
  written += cipher.final().copy(out, written);
  if (written !== cipherStart + cipherLength)
    throw new RangeError('aesCbcEncryptPiecesToText: the pieces are not `length` bytes.');
  const tail = after(out.subarray(cipherStart, written));
  let text = textStart;
  for (let at = cipherStart; at < written; at += ENCODE_PIECE_BYTES) {
    text += out.write(
      out.toString('base64url', at, Math.min(written, at + ENCODE_PIECE_BYTES)),
      text,
      'latin1',
    );
  }
  if (out.write(tail, text, 'latin1') !== afterLength || tail.length !== afterLength)
    throw new RangeError('aesCbcEncryptPiecesToText: `after` is not `afterLength` characters.');
}

/** The length of the text after `before`: base64url of the padded ciphertext and `after`. */
const textAfterBefore = (length: number, afterLength: number) =>
  Math.ceil((paddedLength(length) * 4) / 3) + afterLength;

/** See `SyncPrimitives.aesCbcEncryptPiecesToText`. */
function aesCbcEncryptPiecesToText(
  key: PreparedKey,
  iv: Uint8Array,
  pieces: Iterable<string>,
  length: number,
  before: string,
  afterLength: number,
  after: (ciphertext: Uint8Array) => string,
): string {
  const scratch = releasableBuffer(before.length + textAfterBefore(length, afterLength));
  try {
    const out = scratch.bytes;
    const textStart = out.write(before, 0, 'latin1');
    encryptPiecesToTextIn(out, textStart, key, iv, pieces, length, afterLength, after);
    return out.toString('latin1');
  } finally {
    scratch.release();
  }
}

/**
 * See `SyncPrimitives.aesCbcEncryptPiecesToUtf8`: the same work as `aesCbcEncryptPiecesToText`,
 * in a buffer that is handed to the caller instead of becoming a string. A plain (not resizable)
 * buffer, since it outlives the call: every client and stream API takes it as it is.
 */
function aesCbcEncryptPiecesToUtf8(
  key: PreparedKey,
  iv: Uint8Array,
  pieces: Iterable<string>,
  length: number,
  before: string,
  afterLength: number,
  after: (ciphertext: Uint8Array) => string,
): Buffer<ArrayBuffer> {
  const beforeLength = Buffer.byteLength(before, 'utf8');
  const out = Buffer.allocUnsafeSlow(beforeLength + textAfterBefore(length, afterLength));
  out.write(before, 0, 'utf8');
  encryptPiecesToTextIn(out, beforeLength, key, iv, pieces, length, afterLength, after);
  return out;
}

/** Bytes of ciphertext per piece of in-place base64url: a whole number of 3-byte groups. */
const ENCODE_PIECE_BYTES = 3 * 16 * 1024;

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
  aesCbcEncryptPiecesToText,
  aesCbcEncryptPiecesToUtf8,
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
  decodeBase64UrlRange,
  checkBase64UrlRange,
  encodeBase64,
  decodeBase64,
  decodeBase64Within,
  decodesWithinInPlace: true,
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
