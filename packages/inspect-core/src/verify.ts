import { IV_BYTES, TAG_BYTES } from '@jwe-transport/codec';
import { decryptWithKeys } from './decrypt-with-keys.js';
import type { DecodedEnvelope } from './diagnose.js';
import { headerSourceNote } from './format.js';
import type { KeySet } from './keys.js';
import { classifyPlaintext, describePayload, type Payload } from './payload.js';
import type { InspectReport, Verification } from './report.js';
import { aadReadings, decryptAuthenticated, findTagMatch, type TagMatch } from './tag-analysis.js';

function kidLabel(kid: string | undefined): string {
  return kid === undefined ? 'the key given' : `the key listed as "${kid}"`;
}

function explainMatch(match: TagMatch, decoded: DecodedEnvelope, envelopeKid: string | null): string[] {
  const findings: string[] = [];
  const asSent = match.reading.protectedText === decoded.protectedText;
  if (match.form === 'full') {
    findings.push(
      `Confirmed: the 32-byte tag is the full, untruncated HMAC-SHA-256 over ${match.reading.label}. The content is ` +
        'authentic, but the sender must send only the first 16 bytes, as A128CBC-HS256 requires; standard decryption rejects it.',
    );
  }
  if (!asSent && decoded.protectedText !== undefined) {
    findings.push(
      `The tag authenticates over ${match.reading.label}, not over the protected header as sent: the header was ` +
        're-encoded on the way, or the sender computes the tag over a different header than it sends.',
    );
  } else if (!asSent && match.reading.protectedText !== '') {
    findings.push(`The tag covers ${match.reading.label}, which the sender left out of the envelope.`);
  }
  if (envelopeKid !== null && match.entry.kid !== undefined && match.entry.kid !== envelopeKid) {
    findings.push(
      `It authenticates with ${kidLabel(match.entry.kid)}, not the key for the envelope's kid "${envelopeKid}".`,
    );
  }
  return findings;
}

function ruledOutAndRemaining(report: InspectReport, decoded: DecodedEnvelope, keys: KeySet) {
  const ruledOut = [
    'Key length: every key given is 16 bytes, doubled into the 32 bytes A128CBC-HS256 needs.',
    decoded.protectedText === undefined
      ? 'Header variants: neither an empty AAD (the RFC reading) nor either encoding of {"alg":"dir","enc":"A128CBC-HS256"} authenticates.'
      : 'Header encoding: neither the protected header as sent nor its compact or spaced re-encodings authenticate.',
    decoded.protectedText === undefined
      ? 'Missing protected header: all three readings of a missing header were tried.'
      : 'Ignored protected header: an empty AAD does not authenticate either.',
  ];
  if (keys.entries.length > 1)
    ruledOut.push(`Key choice: all ${keys.entries.length} keys given were tried, whatever the kid says.`);
  const tagLength = decoded.tag!.bytes.length;
  if (tagLength === 32)
    ruledOut.push('Untruncated tag: the 32 bytes are not the full HMAC-SHA-256 under any of these readings.');
  else if (tagLength === TAG_BYTES) ruledOut.push('Tag length: the tag is 16 bytes, as it should be.');
  const encodingProblems = report.diagnostics.some((d) => d.code === 'BASE64URL_NONCANONICAL');
  if (!encodingProblems) ruledOut.push('Encoding damage: every member is canonical base64url.');

  const remaining = [
    'A different key: the sender used another shared key (or the key of another kid). A wrong key and a modified envelope look the same, by design.',
    'A change on the way: the iv, ciphertext or tag was altered or cut off after the tag was computed (an editor, a proxy, a truncated log line).',
  ];
  if (encodingProblems)
    remaining.push(
      'A re-encoding of a member (see the base64url warnings): re-encoded bytes no longer match.',
    );
  if (decoded.iv!.bytes.length !== IV_BYTES || (tagLength !== TAG_BYTES && tagLength !== 32)) {
    remaining.push('A sender that uses another algorithm than A128CBC-HS256 (see the length diagnostics).');
  }
  remaining.push(
    'A sender bug: a tag over other data than AAD || IV || ciphertext || AL (RFC 7518 section 5.2.2.1).',
  );
  return { ruledOut, remaining };
}

export interface VerifyResult {
  verification: Verification;
  /** The opened content, with its bytes, when some key and reading authenticated the envelope. */
  payload?: Payload;
}

/**
 * Verifies with the keys given. When the standard verification fails, recomputes the tag under
 * each plausible mistake to say which causes are ruled out and which remain; a match under a
 * non-standard reading is reported, with the (then authentic) content.
 */
export async function verifyEnvelope(
  text: string,
  report: InspectReport,
  decoded: DecodedEnvelope,
  keys: KeySet,
): Promise<VerifyResult> {
  const findings: string[] = [];
  try {
    const result = await decryptWithKeys(text, keys);
    const payload = await classifyPlaintext(result.plaintext);
    const note = headerSourceNote(result.headerSource);
    if (note) findings.push(note);
    if (result.kidMismatch)
      findings.push(`It authenticates with ${kidLabel(result.keyKid)}, not the key for kid "${result.kid}".`);
    return {
      verification: {
        ok: true,
        authenticatedAs: result.headerSource,
        keyKid: result.keyKid ?? null,
        payload: describePayload(payload),
        findings,
        ruledOut: [],
        remaining: [],
      },
      payload,
    };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_JWE_DECRYPTION_FAILED') {
      const message = error instanceof Error ? error.message : String(error);
      findings.push(`Decryptors refuse this envelope before checking its tag: ${message}`);
    }
  }
  const { iv, ciphertext, tag } = decoded;
  if (!iv || !ciphertext || !tag) {
    return {
      verification: {
        ok: false,
        findings,
        ruledOut: [],
        remaining: ['The envelope is incomplete: iv, ciphertext and tag are all needed.'],
      },
    };
  }
  const match = await findTagMatch(
    keys.entries,
    aadReadings(decoded.protectedText),
    decoded.aadText,
    iv.bytes,
    ciphertext.bytes,
    tag.bytes,
  );
  if (match) {
    findings.push(...explainMatch(match, decoded, report.kid));
    const plaintext = await decryptAuthenticated(match.entry.key, iv.bytes, ciphertext.bytes);
    const payload = plaintext ? await classifyPlaintext(plaintext) : undefined;
    if (!plaintext) {
      findings.push(
        'The tag verifies but the CBC padding is invalid: the sender encrypted with a different AES key half than its MAC key half, or pads wrongly.',
      );
    }
    return {
      verification: {
        ok: false,
        authenticatedAs: `${match.form === 'full' ? 'an untruncated 32-byte tag over ' : 'a tag over '}${match.reading.label}`,
        keyKid: match.entry.kid ?? null,
        ...(payload ? { payload: describePayload(payload) } : {}),
        findings,
        ruledOut: [],
        remaining: [],
      },
      ...(payload ? { payload } : {}),
    };
  }
  return { verification: { ok: false, findings, ...ruledOutAndRemaining(report, decoded, keys) } };
}
