import { invalid } from './errors.js';
import { ALG, ENC, type JoseHeader, PROTECTED_COMPACT, PROTECTED_SPACED } from './header.js';
import { type KeyInput, type KeyResolver, unknownKid } from './key.js';

/*
 * The rules that turn an envelope's members into a joint header, a kid, a key and the AAD
 * candidates. The one-shot decoder and the streaming decoder both apply exactly these.
 */

/**
 * How to read an envelope that has no `protected` member (the service's documented responses):
 * - `'infer'` (default): try RFC 7516's empty AAD first, then the tag over each of the two header
 *   encodings seen in the wild; the result's `headerSource` says which one authenticated.
 * - `'rfc'`: only the RFC reading (empty AAD).
 * - `'reject'`: refuse such envelopes with `ERR_JWE_INVALID`.
 */
export type MissingProtectedPolicy = 'infer' | 'rfc' | 'reject';

/** Which bytes the tag authenticated as the protected header. */
export type HeaderSource =
  /** The envelope's own `protected` member (the normal case). */
  | 'protected'
  /** No protected header; empty AAD, as RFC 7516 defines it. */
  | 'none'
  /** No `protected` member, but the tag covers `{"alg":"dir","enc":"A128CBC-HS256"}`. */
  | 'assumed-compact'
  /** No `protected` member, but the tag covers `{"alg": "dir", "enc": "A128CBC-HS256"}`. */
  | 'assumed-spaced';

const ASSUMED_SOURCES: readonly HeaderSource[] = ['none', 'assumed-compact', 'assumed-spaced'];
const ASSUMED_PROTECTED: readonly string[] = ['', PROTECTED_COMPACT, PROTECTED_SPACED];

interface UnprotectedParts {
  unprotected?: Record<string, unknown> | undefined;
  header?: Record<string, unknown> | undefined;
}

/** Protected plus unprotected parameters; RFC 7516 requires their names to be disjoint. */
export function jointHeader(
  protectedHeader: Readonly<Record<string, unknown>> | undefined,
  parts: UnprotectedParts,
): Record<string, unknown> {
  const joint: Record<string, unknown> = { ...protectedHeader };
  if (parts.unprotected) addUnprotected(joint, parts.unprotected);
  if (parts.header) addUnprotected(joint, parts.header);
  return joint;
}

function addUnprotected(joint: Record<string, unknown>, part: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(part)) {
    if (name === '__proto__') throw invalid('An unprotected header contains a forbidden member "__proto__".');
    if (Object.hasOwn(joint, name))
      throw invalid(`The header parameter "${name}" appears in more than one header.`);
    joint[name] = value;
  }
}

/** Without a protected header the algorithm is implied by the service's documentation. */
export function implyAlgorithm(header: Record<string, unknown>, hasProtected: boolean): void {
  if (!hasProtected && header.alg === undefined && header.enc === undefined) {
    header.alg = ALG;
    header.enc = ENC;
  }
}

export function assertProtectedPolicy(hasProtected: boolean, policy: MissingProtectedPolicy): void {
  if (!hasProtected && policy === 'reject') {
    throw invalid('The envelope has no "protected" header, and this decryptor is set to require one.');
  }
}

/** The key id: the top-level member (as the service sends it) or the header's, which must agree. */
export function pickKid(
  topLevelKid: string | undefined,
  header: Record<string, unknown>,
): string | undefined {
  const fromHeader = header.kid as string | undefined;
  if (topLevelKid !== undefined && fromHeader !== undefined && topLevelKid !== fromHeader) {
    throw invalid('The envelope names two different key ids (top-level "kid" and header "kid").');
  }
  return topLevelKid ?? fromHeader;
}

export async function resolveKey(
  key: KeyInput | KeyResolver,
  kid: string | undefined,
  header: JoseHeader,
): Promise<KeyInput> {
  if (typeof key !== 'function') return key;
  const resolved = await key(kid, header);
  if (resolved === undefined) throw unknownKid(kid);
  return resolved;
}

/** The protected-header texts the tag may cover, in the order they are tried. */
export function protectedCandidates(
  protectedText: string | undefined,
  policy: MissingProtectedPolicy,
): readonly string[] {
  if (protectedText !== undefined) return [protectedText];
  return policy === 'rfc' ? ASSUMED_PROTECTED.slice(0, 1) : ASSUMED_PROTECTED;
}

export function headerSourceOf(hasProtected: boolean, candidateIndex: number): HeaderSource {
  return hasProtected ? 'protected' : ASSUMED_SOURCES[candidateIndex]!;
}
