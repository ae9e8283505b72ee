import { Buffer } from 'node:buffer';
import { IV_BYTES } from '../cbc-hmac.js';
import type { HeaderSource, MissingProtectedPolicy } from '../codec.js';
import { decodeBase64Url } from '../encoding/node-base64.js';
import { invalid, JweError } from '../errors.js';
import {
  ALG,
  assertSupportedHeader,
  ENC,
  type JoseHeader,
  PROTECTED_COMPACT,
  PROTECTED_SPACED,
  parseProtectedHeader,
} from '../header.js';
import { type KeyInput, type KeyResolver, keyBytes, unknownKid } from '../key.js';

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

const ASSUMED_SOURCES: readonly HeaderSource[] = ['none', 'assumed-compact', 'assumed-spaced'];
const ASSUMED_PROTECTED = ['', PROTECTED_COMPACT, PROTECTED_SPACED];

export function headerSource(resolved: ResolvedEnvelope, aadIndex: number): HeaderSource {
  return resolved.hasProtected ? 'protected' : ASSUMED_SOURCES[aadIndex]!;
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

function jointHeader(members: Members): Record<string, unknown> {
  const joint: Record<string, unknown> = { ...protectedHeaderOf(members) };
  for (const part of [members.unprotected, members.header]) {
    if (!part) continue;
    for (const [name, value] of Object.entries(part)) {
      if (name === '__proto__')
        throw invalid('An unprotected header contains a forbidden member "__proto__".');
      if (Object.hasOwn(joint, name))
        throw invalid(`The header parameter "${name}" appears in more than one header.`);
      joint[name] = value;
    }
  }
  return joint;
}

function pickKid(members: Members, header: Record<string, unknown>): string | undefined {
  const fromHeader = header.kid as string | undefined;
  if (members.kid !== undefined && fromHeader !== undefined && members.kid !== fromHeader) {
    throw invalid('The envelope names two different key ids (top-level "kid" and header "kid").');
  }
  return members.kid ?? fromHeader;
}

async function resolveKey(
  key: KeyInput | KeyResolver,
  kid: string | undefined,
  header: JoseHeader,
): Promise<Uint8Array> {
  if (typeof key !== 'function') return keyBytes(key);
  const resolved = await key(kid, header);
  if (resolved === undefined) throw unknownKid(kid);
  return keyBytes(resolved);
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
  const header = jointHeader(members);
  // alg/enc may sit in an unprotected header that comes later; then judge them at the end.
  if (header.alg === undefined || header.enc === undefined) return undefined;
  assertSupportedHeader(header);
  const kid = pickKid(members, header);
  if (typeof key === 'function' && kid === undefined) return undefined;
  return {
    key: await resolveKey(key, kid, header),
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
  if (!hasProtected && policy === 'reject') {
    throw invalid('The envelope has no "protected" header, and this decryptor is set to require one.');
  }
  const header = jointHeader(members);
  if (!hasProtected && header.alg === undefined && header.enc === undefined) {
    header.alg = ALG;
    header.enc = ENC;
  }
  assertSupportedHeader(header);
  const kid = pickKid(members, header);
  const iv = decodeIv(members.iv!);
  const tag = decodeBase64Url(members.tag!, 'The "tag" member');
  const candidates = hasProtected
    ? [members.protected!]
    : policy === 'rfc'
      ? ASSUMED_PROTECTED.slice(0, 1)
      : ASSUMED_PROTECTED;
  return {
    key: await resolveKey(key, kid, header),
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
