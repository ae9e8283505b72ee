import { invalid, JweError, quote } from './errors.js';
import { parseStrictJsonObject } from './strict-json.js';

/** The only algorithm pair this codec implements (docs/wire-format.md#protected-header). */
export const ALG = 'dir';
export const ENC = 'A128CBC-HS256';

/** The JOSE header of an envelope: what the protected header and any unprotected headers say. */
export interface JoseHeader {
  alg: typeof ALG;
  enc: typeof ENC;
  kid?: string;
  typ?: string;
  cty?: string;
  [parameter: string]: unknown;
}

/**
 * The protected header we send: the compact encoding of `{"alg":"dir","enc":"A128CBC-HS256"}`.
 * The spaced variant is what some peers (Python's json.dumps) produce; both are seen on the wire.
 */
export const PROTECTED_COMPACT = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0';
export const PROTECTED_SPACED = 'eyJhbGciOiAiZGlyIiwgImVuYyI6ICJBMTI4Q0JDLUhTMjU2In0';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid(`${what} is not valid UTF-8.`);
  }
}

/**
 * Checks a joint header (protected plus unprotected parameters) before any crypto runs: a
 * supported `alg`/`enc`, no compression, no critical extensions.
 */
export function assertSupportedHeader(header: Record<string, unknown>): asserts header is JoseHeader {
  if (header.alg !== ALG) {
    throw new JweError(
      'ERR_JWE_UNSUPPORTED',
      `Unsupported JWE "alg" ${quote(header.alg)}: only "${ALG}" (a shared symmetric key) is supported.`,
    );
  }
  if (header.enc !== ENC) {
    throw new JweError(
      'ERR_JWE_UNSUPPORTED',
      `Unsupported JWE "enc" ${quote(header.enc)}: only "${ENC}" is supported.`,
    );
  }
  if ('zip' in header) {
    throw new JweError(
      'ERR_JWE_UNSUPPORTED',
      'Compressed JWE ("zip") is not supported: send the payload uncompressed.',
    );
  }
  if ('crit' in header) {
    throw new JweError(
      'ERR_JWE_UNSUPPORTED',
      'JWE "crit" extensions are not supported: this codec understands none, so it must refuse the envelope.',
    );
  }
  if ('kid' in header && typeof header.kid !== 'string') throw invalid('JWE header "kid" must be a string.');
}

/** Decodes and validates the JSON of a `protected` member (already base64url-decoded). */
export function parseProtectedHeader(bytes: Uint8Array): Record<string, unknown> {
  return parseStrictJsonObject(decodeUtf8(bytes, 'The protected header'), 'The protected header');
}
