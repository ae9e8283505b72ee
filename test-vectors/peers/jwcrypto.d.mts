/** Python interpreter used (env JWCRYPTO_PYTHON, default /usr/bin/python3). */
export declare const JWCRYPTO_PYTHON: string;
/** Absolute path of jwcrypto_peer.py. */
export declare const JWCRYPTO_PEER_SCRIPT: string;

export type JwcryptoDecryptResult =
  | { ok: true; plaintext: Uint8Array }
  | { ok: false; error: string; detail?: string };

/** Encrypt with jwcrypto: `count` (default 1) flattened JWE JSON objects; `kid` as a top-level member. */
export declare function jwcryptoEncrypt(
  keyString: string,
  plaintext: Uint8Array,
  options?: { kid?: string; count?: number },
): Promise<Record<string, unknown>[]>;

/** Decrypt a batch in one Python process. Never rejects per envelope; rejects only if the peer process fails. */
export declare function jwcryptoDecrypt(
  keyString: string,
  envelopes: ReadonlyArray<object | string>,
): Promise<JwcryptoDecryptResult[]>;
