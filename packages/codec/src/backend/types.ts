/**
 * What the codec needs from a runtime. Two implementations exist: `node:crypto` (fast, sync under
 * the hood) and WebCrypto (everywhere else). The content-encryption logic stays in one place
 * (`cbc-hmac.ts`) and only calls these primitives, so both back ends behave identically.
 */
export interface CryptoBackend {
  readonly name: 'node' | 'webcrypto';
  /** Imports the two halves of a 32-byte A128CBC-HS256 key once, for reuse across calls. */
  prepareKey(key: Uint8Array): PreparedKey | Promise<PreparedKey>;
  randomBytes(length: number): Uint8Array<ArrayBuffer>;
  /** HMAC-SHA-256 over the concatenation of `parts` with the MAC half of the key. */
  hmacSha256(key: PreparedKey, parts: readonly Uint8Array[]): Promise<Uint8Array<ArrayBuffer>>;
  /** AES-128-CBC with PKCS#7 padding, using the encryption half of the key. */
  aesCbcEncrypt(key: PreparedKey, iv: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
  /** Throws on bad padding; callers turn every throw into the one decryption error. */
  aesCbcDecrypt(key: PreparedKey, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
  /** Compares two equal-length byte strings without data-dependent timing. */
  constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean;
  encodeBase64Url(bytes: Uint8Array): string;
  decodeBase64Url(text: string, what: string): Uint8Array<ArrayBuffer>;
  encodeBase64(bytes: Uint8Array): string;
  decodeBase64(text: string, what: string): Uint8Array<ArrayBuffer>;
  /**
   * Decodes the standard base64 text in `bytes[start, end)` as strictly as `decodeBase64`. May
   * decode into `bytes`' own memory (the result is then a view of it), so the caller must hand over
   * `bytes`; after an error their content is undefined.
   */
  decodeBase64Within(bytes: Uint8Array, start: number, end: number, what: string): Uint8Array<ArrayBuffer>;
  /** Whether `decodeBase64Within` writes into `bytes` (else `bytes` are left as they were, even on error). */
  readonly decodesWithinInPlace: boolean;
  /**
   * Decodes the base64url text at `[start, end)` of an envelope's text or bytes, as strictly as
   * `decodeBase64Url` (a byte past 0x7F in `input` is an error), without copying that text out
   * first: a ciphertext of megabytes is read where it lies.
   */
  decodeBase64UrlRange(
    input: string | Uint8Array,
    start: number,
    end: number,
    what: string,
    within?: boolean,
  ): Uint8Array<ArrayBuffer>;
  /**
   * `decodeBase64UrlRange`'s checks alone, writing nothing; where a back end has it,
   * `decodeBase64UrlRange` with `within` decodes bytes into their own memory (from `start`) and
   * returns a view of them.
   */
  checkBase64UrlRange?(input: Uint8Array, start: number, end: number, what: string): void;
  /** Whether `bytes` holds `byte` anywhere (memchr speed where the runtime has it). */
  includesByte(bytes: Uint8Array, byte: number): boolean;
  /** Latin-1 strings to one byte array (used for the AAD and the file payload's JSON framing). */
  latin1Bytes(...texts: string[]): Uint8Array<ArrayBuffer>;
  /** Bytes to a string, one character per byte; exact for ASCII, which is all callers accept. */
  latin1String(bytes: Uint8Array, start?: number, end?: number): string;
  utf8Bytes(text: string): Uint8Array<ArrayBuffer>;
  /** The same primitives without a promise, where the runtime has them (node:crypto; not WebCrypto). */
  readonly sync?: SyncPrimitives;
  /** The longest string this runtime can make, where known: a one-shot envelope must fit in one. */
  readonly maxStringLength?: number;
}

/** Synchronous twins of the crypto primitives: `encryptSync`, and fewer promise hops on Node. */
export interface SyncPrimitives {
  hmacSha256(key: PreparedKey, parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer>;
  /** A string plaintext is encrypted as its UTF-8 bytes, which the back end writes itself. */
  aesCbcEncrypt(key: PreparedKey, iv: Uint8Array, plaintext: Uint8Array | string): Uint8Array<ArrayBuffer>;
  /**
   * AES-CBC with PKCS#7 padding of the concatenation of `pieces` (ASCII texts, `length` bytes in
   * all), fed to the cipher one at a time, into one output buffer.
   */
  aesCbcEncryptPieces(
    key: PreparedKey,
    iv: Uint8Array,
    pieces: Iterable<string>,
    length: number,
  ): Uint8Array<ArrayBuffer>;
  /**
   * `before + base64url(ciphertext) + after(ciphertext)` as one string, the ciphertext being
   * `aesCbcEncryptPieces`' of the same arguments and `after` returning `afterLength` ASCII
   * characters. Built in one scratch buffer as long as the text and released before returning,
   * so that the text is the only large thing left.
   */
  aesCbcEncryptPiecesToText(
    key: PreparedKey,
    iv: Uint8Array,
    pieces: Iterable<string>,
    length: number,
    before: string,
    afterLength: number,
    after: (ciphertext: Uint8Array) => string,
  ): string;
  /**
   * The UTF-8 bytes of `aesCbcEncryptPiecesToText`'s text (`before` may hold any characters), in
   * one buffer as long as they are, which the caller keeps: the text never exists as a string.
   */
  aesCbcEncryptPiecesToUtf8(
    key: PreparedKey,
    iv: Uint8Array,
    pieces: Iterable<string>,
    length: number,
    before: string,
    afterLength: number,
    after: (ciphertext: Uint8Array) => string,
  ): Uint8Array<ArrayBuffer>;
  /** The ciphertext is handed over: the back end may decrypt within its memory. */
  aesCbcDecrypt(key: PreparedKey, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array<ArrayBuffer>;
}

/** Opaque per-back-end key material; created by `prepareKey`. */
export interface PreparedKey {
  readonly macKey: unknown;
  readonly encKey: unknown;
}
