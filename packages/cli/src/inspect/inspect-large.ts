import { decryptStream, isJweError } from '@jwe-transport/codec';
import type { InspectReport, Verification } from '@jwe-transport/inspect-core';
import { diagnose } from '@jwe-transport/inspect-core';
import { readLooseEnvelope, sniffMediaType } from '@jwe-transport/inspect-core/internal';
import { streamingKey } from '../commands/decrypt-stream.js';
import { type OpenedInput, remainingBytes } from '../input/read-input.js';
import type { KeySet } from '../keys.js';
import { digestSink } from '../output/digest-sink.js';
import { LargeEnvelopeScan } from './large-envelope-scan.js';

const FILE_PAYLOAD_START = '{"file":';

function streamedFailure(message: string | undefined, protectedMissing: boolean): Verification {
  return {
    ok: false,
    findings: [
      ...(message ? [`Decryptors refuse this envelope before checking its tag: ${message}`] : []),
      'The envelope was checked in one streaming pass because of its size; the by-hand checks of header ' +
        're-encodings and untruncated tags run only on inputs that fit in memory.',
    ],
    ruledOut: [
      'Key length: every key given is 16 bytes, doubled into the 32 bytes A128CBC-HS256 needs.',
      ...(protectedMissing
        ? [
            'Header variants: an empty AAD and both encodings of {"alg":"dir","enc":"A128CBC-HS256"} were tried.',
          ]
        : []),
    ],
    remaining: [
      'A different key: the sender used another shared key (or the key of another kid).',
      'A change on the way: the iv, ciphertext or tag was altered or cut off after the tag was computed.',
      ...(protectedMissing
        ? []
        : ['A protected header re-encoded on the way (not checked by hand at this size).']),
    ],
  };
}

/**
 * `inspect` for envelopes too large to hold: one pass over the input feeds both a scanner (for the
 * report) and, with a key, the codec's streaming decryptor writing into a digest (for verification).
 */
export async function inspectLarge(input: OpenedInput, keys: KeySet | undefined): Promise<InspectReport> {
  const scan = new LargeEnvelopeScan();
  const source = remainingBytes(input)[Symbol.asyncIterator]();
  async function* observed(): AsyncGenerator<Uint8Array> {
    for (let next = await source.next(); !next.done; next = await source.next()) {
      scan.feed(next.value);
      yield next.value;
    }
  }
  let verification: Verification | undefined;
  let refusal: string | undefined;
  let authFailed = false;
  if (keys) {
    const digest = digestSink();
    try {
      const result = await decryptStream(observed(), streamingKey(keys), { to: digest.stream });
      const summary = digest.result();
      const media = sniffMediaType(summary.head);
      const head = summary.head.toString('latin1');
      verification = {
        ok: true,
        authenticatedAs: result.headerSource,
        findings: [],
        ruledOut: [],
        remaining: [],
        payload: {
          type: head.startsWith(FILE_PAYLOAD_START) ? 'file payload (not decoded at this size)' : 'plaintext',
          size: summary.size,
          sha256: summary.sha256,
          mediaType: media.mediaType,
          description: media.description,
        },
      };
    } catch (error) {
      if (isJweError(error) && error.code === 'ERR_JWE_DECRYPTION_FAILED') authFailed = true;
      else refusal = error instanceof Error ? error.message : String(error);
    }
  }
  // The decryptor may stop early on a malformed envelope; the report still covers all of it.
  for (let next = await source.next(); !next.done; next = await source.next()) scan.feed(next.value);
  input.close();
  const { skeleton, ciphertext } = scan.finish();
  const { report } = diagnose(readLooseEnvelope(skeleton.trim()), ciphertext ? { ciphertext } : {});
  if (keys && !verification && (authFailed || refusal !== undefined)) {
    verification = streamedFailure(refusal, !report.protectedHeader.present);
  }
  if (verification) report.verification = verification;
  return report;
}
