import type { JoseHeader } from './header.js';
import type { HeaderSource, MissingProtectedPolicy } from './header-rules.js';

export type { HeaderSource, MissingProtectedPolicy } from './header-rules.js';

/** Options of `encrypt`, `encryptSync`, `encryptJson` and `encryptFile`. */
export interface EncryptOptions {
  /** Key id sent as the envelope's top-level `kid` member (not authenticated; it only selects a key). */
  kid?: string;
  /**
   * Fixes the IV instead of drawing a fresh random one. Only for reproducible test vectors:
   * reusing an IV with the same key leaks plaintext relations.
   */
  unsafeFixedIv?: Uint8Array;
}

/** Options of `decrypt`, `decryptJson`, `decryptFile` and `decryptDetailed`. */
export interface DecryptOptions {
  /** How to read an envelope without `protected`: `'infer'` (default), `'rfc'` or `'reject'`. */
  missingProtected?: MissingProtectedPolicy;
  /**
   * The input bytes are handed over (a request body read for this call and used for nothing
   * else): on Node the ciphertext of a large envelope is decoded and decrypted within them instead
   * of in a copy, and the plaintext may be a view of them. Their content afterwards is undefined.
   * Ignored for other inputs and on WebCrypto. Refusals are the same either way.
   */
  consumeInput?: boolean;
}

/** What `decryptDetailed` resolves with. */
export interface DecryptResult {
  plaintext: Uint8Array<ArrayBuffer>;
  /** The joint JOSE header (protected plus unprotected parameters), or the assumed one. */
  header: JoseHeader;
  kid: string | undefined;
  headerSource: HeaderSource;
}
