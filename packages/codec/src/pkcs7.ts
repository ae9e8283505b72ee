import { decryptionFailed } from './errors.js';

/** The CBC ciphertext length of `plaintextLength` bytes: PKCS#7 always adds 1 to 16 bytes. */
export const paddedLength = (plaintextLength: number) => (Math.floor(plaintextLength / 16) + 1) * 16;

/**
 * PKCS#7 unpadding of decrypted CBC blocks; only ever reached after the tag has verified. Bad
 * padding is the same one authentication error as a bad tag, so it can never act as an oracle.
 */
export function unpad<T extends Uint8Array>(block: T): T {
  const pad = block[block.length - 1] ?? 0;
  if (pad < 1 || pad > 16 || pad > block.length) throw decryptionFailed();
  for (let i = block.length - pad; i < block.length; i++) if (block[i] !== pad) throw decryptionFailed();
  return block.subarray(0, block.length - pad) as T;
}
