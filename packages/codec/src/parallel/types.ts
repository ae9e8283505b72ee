import type { PreparedKey } from '../backend/types.js';

/**
 * Large one-shot envelopes on two threads (Node only; see parallel/node.ts). Every method may
 * answer `undefined`, meaning "not now" (no helper thread yet, or it failed): the codec then runs
 * its one-thread code, which gives the same results.
 */
export interface ParallelCrypto {
  /** Plaintext bytes from which `seal` is worth it. */
  readonly sealFrom: number;
  /** Ciphertext base64url characters from which `open` is worth it. */
  readonly openFrom: number;
  seal(
    key: PreparedKey,
    iv: Uint8Array,
    plaintext: Uint8Array,
    aad: Uint8Array,
  ): { ciphertext: string; tag: Uint8Array } | undefined;
  /**
   * `seal` of the file payload `{"file":"<base64 of file>"}`, built piece by piece as it is
   * encrypted (worth it once that payload reaches `sealFrom`).
   */
  sealFile(
    key: PreparedKey,
    iv: Uint8Array,
    file: Uint8Array,
    aad: Uint8Array,
  ): { ciphertext: string; tag: Uint8Array } | undefined;
  /**
   * Strictly decodes the base64url ciphertext, verifies the tag (constant time) and only then
   * decrypts. With `file`, it also reads a canonical `{"file":"<base64>"}` payload and answers
   * `{ file: true }` with the file bytes; any other payload comes back whole with `file: false`.
   * Throws the codec's errors: base64url (ERR_JWE_INVALID) or ERR_JWE_DECRYPTION_FAILED.
   */
  open(
    key: PreparedKey,
    aad: Uint8Array,
    iv: Uint8Array,
    ciphertext: string,
    tag: Uint8Array,
    file: boolean,
  ): { bytes: Uint8Array; file: boolean } | undefined;
}
