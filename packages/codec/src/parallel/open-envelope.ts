import type { CryptoBackend, PreparedKey } from '../backend/types.js';
import { open } from '../cbc-hmac.js';
import type { Envelope } from '../envelope.js';
import type { ParallelCrypto } from './types.js';

/**
 * `decrypt` of a large envelope with one AAD candidate through `parallel`. Errors are the
 * one-thread path's, in its order: that path decodes the ciphertext before the tag, the aad and
 * the key, so a bad tag or aad member hands back to it (`undefined`), and a key that fails to
 * resolve is reported only after the ciphertext has been checked. (A key resolver is therefore
 * called before the ciphertext's base64url is checked; its answer is not used if that fails.)
 */
export async function openLargeEnvelope(
  parallel: ParallelCrypto,
  backend: CryptoBackend,
  envelope: Envelope,
  iv: Uint8Array,
  aad: Uint8Array,
  key: () => Promise<PreparedKey>,
  file: boolean,
): Promise<{ bytes: Uint8Array; file: boolean } | undefined> {
  let tag: Uint8Array;
  try {
    tag = backend.decodeBase64Url(envelope.tag, 'The "tag" member');
    if (envelope.aad !== undefined) backend.decodeBase64Url(envelope.aad, 'The "aad" member');
  } catch {
    return undefined;
  }
  let prepared: PreparedKey;
  try {
    prepared = await key();
  } catch (error) {
    backend.decodeBase64Url(envelope.ciphertext, 'The "ciphertext" member');
    throw error;
  }
  const opened = parallel.open(prepared, aad, iv, envelope.ciphertext, tag, file);
  if (opened) return opened;
  const ciphertext = backend.decodeBase64Url(envelope.ciphertext, 'The "ciphertext" member');
  const { plaintext } = await open(backend, prepared, [aad], iv, ciphertext, tag);
  return { bytes: plaintext, file: false };
}
