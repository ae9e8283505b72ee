import { createCipheriv, createHmac, randomBytes } from 'node:crypto';

const PROTECTED = Buffer.from('{"alg":"dir","enc":"A128CBC-HS256"}').toString('base64url');
const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * Builds an envelope by hand from RFC 7516/7518 with node:crypto, independent of our codec, so
 * tests can make envelopes our codec would never emit: a body with broken PKCS#7 padding whose
 * tag is nevertheless valid, or any protected header.
 */
export function craftEnvelope(
  shared: string,
  options: { paddedPlaintext: Uint8Array; protectedHeader?: string; kid?: string },
): Record<string, string> {
  const key = Buffer.from(shared + shared, 'utf8');
  const macKey = key.subarray(0, 16);
  const encKey = key.subarray(16, 32);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', encKey, iv).setAutoPadding(false);
  const ciphertext = Buffer.concat([cipher.update(options.paddedPlaintext), cipher.final()]);
  const protectedHeader = options.protectedHeader ?? PROTECTED;
  const aad = Buffer.from(protectedHeader, 'ascii');
  const aadBits = Buffer.alloc(8);
  aadBits.writeBigUInt64BE(BigInt(aad.length * 8));
  const tag = createHmac('sha256', macKey)
    .update(Buffer.concat([aad, iv, ciphertext, aadBits]))
    .digest()
    .subarray(0, 16);
  const envelope: Record<string, string> = {
    protected: protectedHeader,
    iv: b64u(iv),
    ciphertext: b64u(ciphertext),
    tag: b64u(tag),
  };
  if (options.kid !== undefined) envelope.kid = options.kid;
  return envelope;
}

export const headerOf = (header: object) => Buffer.from(JSON.stringify(header)).toString('base64url');
