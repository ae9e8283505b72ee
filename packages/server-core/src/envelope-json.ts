import type { Envelope } from '@jwe-transport/codec';

/**
 * The JSON text of an envelope the codec made, the same bytes `JSON.stringify` writes. Every
 * member but `kid` is base64url, which JSON never escapes, so only `kid` goes through
 * `JSON.stringify`: scanning the whole ciphertext for characters to escape costs about as much as
 * a fifth of the sealing. Envelopes with other members (`aad`, unprotected headers) are
 * stringified as they are.
 */
export function envelopeJson(envelope: Envelope): string {
  const { kid, protected: protectedText, iv, ciphertext, tag } = envelope;
  if (
    protectedText === undefined ||
    envelope.aad !== undefined ||
    envelope.header !== undefined ||
    envelope.unprotected !== undefined ||
    envelope.encrypted_key !== undefined
  ) {
    return JSON.stringify(envelope);
  }
  const kidMember = kid === undefined ? '' : `"kid":${JSON.stringify(kid)},`;
  return `{${kidMember}"protected":"${protectedText}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}"}`;
}
