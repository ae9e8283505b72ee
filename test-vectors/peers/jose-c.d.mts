/** jose binary used (env JOSE_BIN, default /usr/bin/jose). */
export declare const JOSE_BIN: string;

/** Encrypt with the jose C tool; flattened JWE JSON object. Empty `encrypted_key` removed unless `raw`. */
export declare function joseCEncrypt(
  keyString: string,
  plaintext: Uint8Array,
  options?: { kid?: string; raw?: boolean },
): Promise<Record<string, unknown>>;

/** Decrypt one envelope (flattened object or compact string) with the jose C tool; rejects on failure. */
export declare function joseCDecrypt(keyString: string, envelope: object | string): Promise<Uint8Array>;
