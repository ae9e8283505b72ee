/** Sizes fixed by A128CBC-HS256 (RFC 7518 section 5.2.3). */

/** Bytes in the initialization vector (`iv`). */
export const IV_BYTES = 16;
/** Bytes in the authentication tag (`tag`): the first half of the HMAC-SHA-256 output. */
export const TAG_BYTES = 16;
/** Bytes in one AES block: the ciphertext is always a positive multiple of it. */
export const BLOCK_BYTES = 16;
