import {
  ALG,
  ENC,
  ENVELOPE_MEMBERS,
  IV_BYTES,
  PROTECTED_COMPACT,
  PROTECTED_SPACED,
  TAG_BYTES,
} from '@jwe-transport/codec';
import { checkBase64Url, type DecodedPart, type PartSummary } from './base64url-check.js';
import { utf8Text } from './bytes.js';
import type { LooseEnvelope } from './loose-envelope.js';
import { isObject } from './object.js';
import type { Diagnostic, InspectReport, PartLength, ProtectedHeaderReport } from './report.js';

const KNOWN_MEMBERS = new Set(ENVELOPE_MEMBERS);
const BINARY_MEMBERS = ['protected', 'iv', 'ciphertext', 'tag', 'aad'] as const;

/** The decoded parts, for the key checks that follow the keyless ones. */
export interface DecodedEnvelope {
  protectedText: string | undefined;
  aadText: string | undefined;
  iv: DecodedPart | undefined;
  ciphertext: DecodedPart | undefined;
  tag: DecodedPart | undefined;
}

function tagLengthMessage(length: number): string {
  const base = `The tag is ${length} bytes; A128CBC-HS256 requires ${TAG_BYTES}, so every conforming decryptor rejects it.`;
  if (length === 32) {
    return (
      `${base} A 32-byte tag is most likely the full HMAC-SHA-256 output: the sender did not truncate it to its ` +
      'first 16 bytes (RFC 7518 section 5.2.2.1). Give a key and inspect confirms whether it is.'
    );
  }
  if (length === 24)
    return `${base} 24 bytes is the tag length of A192CBC-HS384: the sender may use another enc.`;
  if (length === 0) return `${base} The tag is empty: the capture may have lost the end of the envelope.`;
  if (length < TAG_BYTES)
    return `${base} A shorter tag usually means the envelope was cut off when it was copied.`;
  return `${base} It may come from another enc, or have extra bytes appended.`;
}

function ivLengthMessage(length: number): string {
  const base = `The IV is ${length} bytes; A128CBC-HS256 uses a ${IV_BYTES}-byte IV.`;
  return length === 12
    ? `${base} 12 bytes is an AES-GCM nonce: the sender probably encrypts with A128GCM or A256GCM.`
    : base;
}

function unsupportedAlgMessage(alg: unknown): string {
  const base = `Unsupported alg ${JSON.stringify(alg)}: the service uses only "${ALG}" (the shared key encrypts the content directly).`;
  if (typeof alg === 'string' && /KW$|RSA|ECDH/.test(alg)) {
    return `${base} "${alg}" wraps a random content key, which then travels in "encrypted_key".`;
  }
  return base;
}

function unsupportedEncMessage(enc: unknown): string {
  const base = `Unsupported enc ${JSON.stringify(enc)}: the service uses only "${ENC}".`;
  if (typeof enc === 'string' && enc.endsWith('GCM'))
    return `${base} AES-GCM envelopes have a 12-byte IV and a 16-byte tag.`;
  return base;
}

function decodeProtected(
  text: string,
  diagnostics: Diagnostic[],
): { report: ProtectedHeaderReport; header?: Record<string, unknown> } {
  const encoding = text === PROTECTED_COMPACT ? 'compact' : text === PROTECTED_SPACED ? 'spaced' : 'other';
  let decoded: unknown;
  try {
    decoded = JSON.parse(utf8Text(checkBase64Url(text).bytes));
  } catch {
    diagnostics.push({
      severity: 'error',
      code: 'PROTECTED_INVALID',
      message: 'The protected header does not decode to JSON.',
    });
    return { report: { present: true, encoding } };
  }
  if (encoding === 'spaced') {
    diagnostics.push({
      severity: 'info',
      code: 'PROTECTED_SPACED',
      message:
        'The protected header is {"alg": "dir", "enc": "A128CBC-HS256"} with spaces (as Python writes it). It is valid: ' +
        'the tag covers the header exactly as sent, so it must never be re-encoded.',
    });
  } else if (encoding === 'other' && isObject(decoded)) {
    diagnostics.push({
      severity: 'info',
      code: 'PROTECTED_UNUSUAL',
      message:
        'The protected header is neither of the two encodings the service uses; it is authenticated as sent.',
    });
  }
  if (!isObject(decoded)) {
    diagnostics.push({
      severity: 'error',
      code: 'PROTECTED_INVALID',
      message: 'The protected header must be a JSON object.',
    });
    return { report: { present: true, decoded, encoding } };
  }
  return { report: { present: true, decoded, encoding }, header: decoded };
}

function checkHeader(header: Record<string, unknown>, diagnostics: Diagnostic[]): void {
  if (header.alg !== ALG)
    diagnostics.push({
      severity: 'error',
      code: 'ALG_UNSUPPORTED',
      message: unsupportedAlgMessage(header.alg),
    });
  if (header.enc !== ENC)
    diagnostics.push({
      severity: 'error',
      code: 'ENC_UNSUPPORTED',
      message: unsupportedEncMessage(header.enc),
    });
  if ('zip' in header) {
    diagnostics.push({
      severity: 'error',
      code: 'ZIP',
      message: 'The header asks for compression ("zip"), which the service does not use.',
    });
  }
  if ('crit' in header) {
    diagnostics.push({
      severity: 'error',
      code: 'CRIT',
      message: 'The header has "crit" extensions, which a decryptor must refuse unless it knows them.',
    });
  }
}

function checkMembers(members: Record<string, unknown>, diagnostics: Diagnostic[]): void {
  if ('recipients' in members) {
    diagnostics.push({
      severity: 'error',
      code: 'GENERAL_SERIALIZATION',
      message: 'This is the general JSON serialization ("recipients"); the service uses the flattened one.',
    });
  }
  for (const name of Object.keys(members)) {
    if (!KNOWN_MEMBERS.has(name) && name !== 'recipients') {
      diagnostics.push({
        severity: 'warning',
        code: 'UNEXPECTED_MEMBER',
        message: `Unexpected member "${name}"; strict decryptors refuse the envelope.`,
      });
    }
  }
  for (const name of ['iv', 'ciphertext', 'tag']) {
    if (typeof members[name] !== 'string') {
      diagnostics.push({
        severity: 'error',
        code: 'MISSING_MEMBER',
        message: `The "${name}" member is missing or not a string.`,
      });
    }
  }
  if (members.encrypted_key === '') {
    diagnostics.push({
      severity: 'info',
      code: 'ENCRYPTED_KEY_EMPTY',
      message:
        'An empty "encrypted_key" is present (jose C writes it); RFC 7516 says to omit it for "dir", and readers accept it.',
    });
  } else if (members.encrypted_key !== undefined) {
    diagnostics.push({
      severity: 'error',
      code: 'ENCRYPTED_KEY_NONEMPTY',
      message: 'A "dir" envelope must have an empty encrypted_key; this one wraps a key.',
    });
  }
  if (members.aad !== undefined) {
    diagnostics.push({
      severity: 'info',
      code: 'AAD_PRESENT',
      message: 'The envelope carries extra authenticated data ("aad"); the tag covers it too.',
    });
  }
}

/** The keyless part of `inspect`: header, kid, part lengths and everything that can be said without a key. */
export function diagnose(
  envelope: LooseEnvelope,
  streamed: Partial<Record<'protected' | 'iv' | 'ciphertext' | 'tag' | 'aad', PartSummary>> = {},
): { report: InspectReport; decoded: DecodedEnvelope } {
  const { members } = envelope;
  const diagnostics: Diagnostic[] = [];
  checkMembers(members, diagnostics);

  const protectedText = typeof members.protected === 'string' ? members.protected : undefined;
  let protectedReport: ProtectedHeaderReport = { present: false };
  let header: Record<string, unknown> = {};
  if (protectedText === undefined) {
    diagnostics.push({
      severity: 'warning',
      code: 'PROTECTED_MISSING',
      message:
        'No protected header (the service documents its responses this way). By RFC 7516 the tag then covers an ' +
        'empty AAD; some servers compute it over {"alg":"dir","enc":"A128CBC-HS256"} and drop the header. With a key, ' +
        'inspect and decrypt try the RFC reading and both header encodings and say which authenticates. Strict ' +
        'libraries (jose C) refuse such envelopes.',
    });
  } else {
    const decodedHeader = decodeProtected(protectedText, diagnostics);
    protectedReport = decodedHeader.report;
    header = { ...decodedHeader.header };
  }
  for (const name of ['unprotected', 'header'] as const) {
    if (isObject(members[name])) Object.assign(header, members[name]);
  }
  const headerForChecks =
    protectedText === undefined && header.alg === undefined ? { ...header, alg: ALG, enc: ENC } : header;
  checkHeader(headerForChecks, diagnostics);

  const topKid = typeof members.kid === 'string' ? members.kid : undefined;
  const headerKid = typeof header.kid === 'string' ? header.kid : undefined;
  if (topKid !== undefined && headerKid !== undefined && topKid !== headerKid) {
    diagnostics.push({
      severity: 'warning',
      code: 'KID_MISMATCH',
      message: `The top-level kid "${topKid}" and the header kid "${headerKid}" differ.`,
    });
  }

  const parts: PartLength[] = [];
  const decodedParts: Partial<Record<(typeof BINARY_MEMBERS)[number], DecodedPart>> = {};
  const lengths: Partial<Record<(typeof BINARY_MEMBERS)[number], number>> = {};
  for (const name of BINARY_MEMBERS) {
    const value = members[name];
    let summary: PartSummary | undefined = streamed[name];
    if (!summary && typeof value === 'string') {
      const decoded = checkBase64Url(value);
      decodedParts[name] = decoded;
      summary = decoded;
    }
    if (!summary) continue;
    lengths[name] = summary.length;
    parts.push({ name, chars: summary.chars, bytes: summary.length });
    for (const problem of summary.problems) {
      diagnostics.push({
        severity: 'warning',
        code: 'BASE64URL_NONCANONICAL',
        message: `"${name}" ${problem}; strict decryptors refuse it.`,
      });
    }
  }
  if (topKid !== undefined) parts.push({ name: 'kid', chars: topKid.length, bytes: null });

  if (lengths.iv !== undefined && lengths.iv !== IV_BYTES)
    diagnostics.push({ severity: 'error', code: 'IV_LENGTH', message: ivLengthMessage(lengths.iv) });
  if (lengths.tag !== undefined && lengths.tag !== TAG_BYTES)
    diagnostics.push({ severity: 'error', code: 'TAG_LENGTH', message: tagLengthMessage(lengths.tag) });
  if (lengths.ciphertext !== undefined && (lengths.ciphertext === 0 || lengths.ciphertext % 16 !== 0)) {
    diagnostics.push({
      severity: 'error',
      code: 'CIPHERTEXT_LENGTH',
      message: `The ciphertext is ${lengths.ciphertext} bytes; AES-CBC output is a non-zero multiple of 16. It was probably cut off.`,
    });
  }
  const { iv, ciphertext, tag } = decodedParts;

  return {
    report: {
      serialization: envelope.serialization,
      protectedHeader: protectedReport,
      header,
      kid: topKid ?? headerKid ?? null,
      parts,
      diagnostics,
    },
    decoded: {
      protectedText,
      aadText: typeof members.aad === 'string' ? members.aad : undefined,
      iv,
      ciphertext,
      tag,
    },
  };
}
