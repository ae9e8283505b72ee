import type { CryptoBackend } from '../backend/types.js';
import { PROTECTED_COMPACT } from '../header.js';
import { reusableDerivations } from '../reusable-derivations.js';

/**
 * One crypto back end with the derivations the one-shot functions keep between calls (prepared
 * keys, parsed protected headers, AAD bytes). The public functions use the one the package's
 * `#backend` import condition picked; tests build one for each back end.
 */
export interface CodecContext extends ReturnType<typeof reusableDerivations> {
  readonly backend: CryptoBackend;
  /** The AAD of every envelope this codec writes: the compact protected header's bytes. */
  readonly defaultAad: Uint8Array;
}

export function contextFor(backend: CryptoBackend): CodecContext {
  const derivations = reusableDerivations(backend);
  return { backend, ...derivations, defaultAad: derivations.aadBytes(PROTECTED_COMPACT, undefined) };
}
