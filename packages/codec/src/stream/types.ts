import type { JoseHeader } from '../header.js';
import type { HeaderSource, MissingProtectedPolicy } from '../header-rules.js';
import type { KeyInput, KeyResolver } from '../key.js';

/**
 * Where streamed bytes come from: a Web `ReadableStream`, or any (async) iterable of `Uint8Array`
 * chunks, which includes Node.js `Readable` streams without an encoding set.
 */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** Where decrypted bytes go: a file path (written atomically) or a Web `WritableStream`. */
export type ByteSink = string | WritableStream<Uint8Array>;

export interface EncryptStreamOptions {
  /** Key id sent as the envelope's top-level `kid` member, first (as the one-shot `encrypt` does). */
  kid?: string;
  /**
   * Largest plaintext (raw variant) or file (file variant) accepted, in bytes. Past it the output
   * stream errors with `ERR_JWE_TOO_LARGE` before it has emitted a tag, so what was emitted never
   * decrypts.
   */
  maxSize?: number;
  /** Fixes the IV instead of drawing a random one. Only for reproducible test vectors. */
  unsafeFixedIv?: Uint8Array;
}

export interface DecryptStreamOptions {
  /** Destination of the plaintext (raw variant) or file bytes (file variant). */
  to: ByteSink;
  /**
   * Largest plaintext (raw variant) or file (file variant) accepted, in bytes. Checked while the
   * ciphertext streams in, before the tag: the call rejects with `ERR_JWE_TOO_LARGE` and the sink
   * is aborted, as on any failure.
   */
  maxSize?: number;
  /** Same meaning as for the one-shot `decrypt`; default `'infer'`. */
  missingProtected?: MissingProtectedPolicy;
  /**
   * Folder for the temporary copy of the ciphertext that envelopes need when `iv`, `protected`
   * or (with a key resolver) `kid` come after `ciphertext`. Default: the OS temp folder.
   */
  spillDir?: string;
}

export interface DecryptStreamResult {
  /** Bytes delivered to the sink: plaintext (raw variant) or file bytes (file variant). */
  bytes: number;
  header: JoseHeader;
  kid: string | undefined;
  headerSource: HeaderSource;
  /** True when the ciphertext had to be kept in a temporary file before it could be decrypted. */
  spilled: boolean;
}

/**
 * The streaming engine a back end brings (node:crypto's; WebCrypto has none). `mode` says whether
 * the plaintext is a file payload or the bytes themselves; `what` names the public function.
 * @internal
 */
export interface Streaming {
  encrypt(
    source: ByteSource,
    key: KeyInput,
    options: EncryptStreamOptions,
    mode: 'raw' | 'file',
    what: string,
  ): ReadableStream<Uint8Array<ArrayBuffer>>;
  decrypt(
    source: ByteSource,
    key: KeyInput | KeyResolver,
    options: DecryptStreamOptions,
    mode: 'raw' | 'file',
    what: string,
  ): Promise<DecryptStreamResult>;
}
