import { Buffer } from 'node:buffer';
import { decodeBase64Url } from '../encoding/node-base64.js';
import { invalid, JweError } from '../errors.js';
import { ALG, assertSupportedHeader, ENC, type JoseHeader, parseProtectedHeader } from '../header.js';
import {
  assertProtectedPolicy,
  type HeaderSource,
  headerSourceOf,
  implyAlgorithm,
  jointHeader,
  type MissingProtectedPolicy,
  pickKid,
  protectedCandidates,
  resolveKey,
} from '../header-rules.js';
import { type KeyInput, type KeyResolver, keyBytes } from '../key.js';
import { IV_BYTES } from '../sizes.js';

/*
 * The envelope members other than `ciphertext`, checked as they arrive and again, as a whole,
 * with the one-shot `decrypt`'s rules and messages once the envelope has ended.
 */

export interface Members {
  protected?: string;
  iv?: string;
  tag?: string;
  kid?: string;
  encrypted_key?: string;
  aad?: string;
  header?: Record<string, unknown>;
  unprotected?: Record<string, unknown>;
}

/** What the tag must be computed over, and with which key: everything but the ciphertext. */
export interface CipherPlan {
  key: Uint8Array;
  iv: Uint8Array;
  /** AAD candidates: one with a `protected` member, up to three without (see `missingProtected`). */
  aads: Uint8Array[];
}

export interface ResolvedEnvelope extends CipherPlan {
  header: JoseHeader;
  kid: string | undefined;
  tag: Uint8Array;
  hasProtected: boolean;
}

export function headerSource(resolved: ResolvedEnvelope, aadIndex: number): HeaderSource {
  return headerSourceOf(resolved.hasProtected, aadIndex);
}

function decodeIv(text: string): Uint8Array {
  const iv = decodeBase64Url(text, 'The "iv" member');
  if (iv.length !== IV_BYTES) throw invalid(`The IV must be ${IV_BYTES} bytes for ${ENC}, got ${iv.length}.`);
  return iv;
}

function protectedHeaderOf(members: Members): Record<string, unknown> | undefined {
  return members.protected === undefined
    ? undefined
    : parseProtectedHeader(decodeBase64Url(members.protected, 'The "protected" member'));
}

/** Checks one member as soon as it is complete, so a bad envelope fails before its ciphertext is read. */
export function recordMember(members: Members, name: string, value: string | Record<string, unknown>): void {
  (members as Record<string, unknown>)[name] = value;
  if (name === 'protected') {
    // The joint header is judged at the end; what the protected header says alone can fail now.
    const header = protectedHeaderOf(members)!;
    assertSupportedHeader({ alg: ALG, enc: ENC, ...header });
  } else if (name === 'iv') decodeIv(value as string);
  else if (name === 'tag') decodeBase64Url(value as string, 'The "tag" member');
  else if (name === 'aad') decodeBase64Url(value as string, 'The "aad" member');
  else if (name === 'encrypted_key' && value !== '') {
    throw new JweError('ERR_JWE_UNSUPPORTED', 'A "dir" envelope must have an empty encrypted_key.');
  }
}

function jointHeaderOf(members: Members): Record<string, unknown> {
  return jointHeader(protectedHeaderOf(members), members);
}

function aadBytes(protectedText: string, aad: string | undefined): Uint8Array {
  return Buffer.from(aad === undefined ? protectedText : `${protectedText}.${aad}`, 'latin1');
}

/**
 * When `ciphertext` starts: the plan to decrypt it as it streams, or `undefined` when a member
 * it needs may still follow (then the ciphertext is spilled to a temporary file instead).
 * Streaming needs `protected` and `iv` first, and with a key resolver also a `kid`.
 */
export async function planStreaming(
  members: Members,
  key: KeyInput | KeyResolver,
): Promise<CipherPlan | undefined> {
  if (members.protected === undefined || members.iv === undefined) return undefined;
  const header = jointHeaderOf(members);
  // alg/enc may sit in an unprotected header that comes later; then judge them at the end.
  if (header.alg === undefined || header.enc === undefined) return undefined;
  assertSupportedHeader(header);
  const kid = pickKid(members.kid, header);
  if (typeof key === 'function' && kid === undefined) return undefined;
  return {
    key: keyBytes(await resolveKey(key, kid, header)),
    iv: decodeIv(members.iv),
    aads: [aadBytes(members.protected, members.aad)],
  };
}

/** The one-shot `decrypt`'s checks over the complete set of members, then the key. */
export async function resolveEnvelope(
  members: Members,
  key: KeyInput | KeyResolver,
  policy: MissingProtectedPolicy,
): Promise<ResolvedEnvelope> {
  const hasProtected = members.protected !== undefined;
  assertProtectedPolicy(hasProtected, policy);
  const header = jointHeaderOf(members);
  implyAlgorithm(header, hasProtected);
  assertSupportedHeader(header);
  const kid = pickKid(members.kid, header);
  const iv = decodeIv(members.iv!);
  const tag = decodeBase64Url(members.tag!, 'The "tag" member');
  const candidates = protectedCandidates(members.protected, policy);
  return {
    key: keyBytes(await resolveKey(key, kid, header)),
    iv,
    aads: candidates.map((text) => aadBytes(text, members.aad)),
    header,
    kid,
    tag,
    hasProtected,
  };
}

/** True when a plan made while streaming still matches what the whole envelope says. */
export function samePlan(a: CipherPlan, b: CipherPlan): boolean {
  const equal = (x: Uint8Array, y: Uint8Array) => Buffer.compare(x, y) === 0;
  return (
    equal(a.key, b.key) &&
    equal(a.iv, b.iv) &&
    a.aads.length === b.aads.length &&
    a.aads.every((aad, i) => equal(aad, b.aads[i]!))
  );
}
