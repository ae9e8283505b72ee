import { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  decodeBase64,
  decodeBase64Url,
  encodeBase64,
  encodeBase64Url,
  toBuffer,
} from '../encoding/node-base64.js';
import type { CryptoBackend, PreparedKey } from './types.js';

interface NodeKey extends PreparedKey {
  readonly macKey: Buffer;
  readonly encKey: Buffer;
}

/*
 * node:crypto does the work synchronously in OpenSSL, which for envelopes up to a few MiB is much
 * faster than WebCrypto's thread-pool round trips. The methods stay async to share one contract.
 */
export const nodeBackend: CryptoBackend = {
  name: 'node',
  prepareKey(key) {
    const bytes = Buffer.from(key);
    return { macKey: bytes.subarray(0, 16), encKey: bytes.subarray(16, 32) } satisfies NodeKey;
  },
  randomBytes: (length) => randomBytes(length),
  async hmacSha256(key, parts) {
    const hmac = createHmac('sha256', (key as NodeKey).macKey);
    for (const part of parts) hmac.update(part);
    return hmac.digest();
  },
  async aesCbcEncrypt(key, iv, plaintext) {
    const cipher = createCipheriv('aes-128-cbc', (key as NodeKey).encKey, iv);
    const head = cipher.update(plaintext);
    const tail = cipher.final();
    return tail.length === 0 ? head : Buffer.concat([head, tail], head.length + tail.length);
  },
  async aesCbcDecrypt(key, iv, ciphertext) {
    const decipher = createDecipheriv('aes-128-cbc', (key as NodeKey).encKey, iv);
    const head = decipher.update(ciphertext);
    const tail = decipher.final();
    return tail.length === 0 ? head : Buffer.concat([head, tail], head.length + tail.length);
  },
  constantTimeEqual: (a, b) => a.length === b.length && timingSafeEqual(a, b),
  encodeBase64Url,
  decodeBase64Url,
  encodeBase64,
  decodeBase64,
  latin1Bytes: (text) => Buffer.from(text, 'latin1'),
  utf8Bytes: (text) => Buffer.from(text, 'utf8'),
};

export { toBuffer };
