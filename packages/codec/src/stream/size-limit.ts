import { JweError } from '../errors.js';

/*
 * `maxSize` counts plaintext bytes (raw variants) or file bytes (file variants), the size a user
 * thinks in. Decryption also bounds the ciphertext from it, so an oversized envelope fails while
 * its ciphertext streams in, before any of it is decrypted or spilled past the bound.
 */

/** Room in a file payload's JSON beyond the base64 itself: `{"file":""}` plus some whitespace. */
const FILE_PAYLOAD_SLACK = 1024;
/** Room in an envelope beyond its ciphertext text: the other members and whitespace. */
const ENVELOPE_SLACK = 1024 * 1024;

export function checkMaxSize(maxSize: number | undefined, what: string): void {
  if (maxSize !== undefined && !(Number.isSafeInteger(maxSize) && maxSize >= 0)) {
    throw new TypeError(`${what}: maxSize must be a non-negative integer (bytes).`);
  }
}

function tooLarge(maxSize: number, kind: 'plaintext' | 'file'): JweError {
  return new JweError(
    'ERR_JWE_TOO_LARGE',
    `The ${kind} is larger than the configured maxSize of ${maxSize} bytes. Raise maxSize if it is expected.`,
  );
}

export class SizeLimit {
  private content = 0;
  private ciphertext = 0;
  private envelope = 0;
  private readonly ciphertextLimit: number;
  private readonly envelopeLimit: number;

  constructor(
    private readonly maxSize: number | undefined,
    private readonly kind: 'plaintext' | 'file',
  ) {
    const plaintextLimit =
      maxSize === undefined
        ? Number.POSITIVE_INFINITY
        : kind === 'plaintext'
          ? maxSize
          : Math.ceil(maxSize / 3) * 4 + FILE_PAYLOAD_SLACK;
    // PKCS#7 adds 1-16 bytes: the ciphertext of n plaintext bytes is floor(n / 16) * 16 + 16.
    this.ciphertextLimit = Math.floor(plaintextLimit / 16) * 16 + 16;
    this.envelopeLimit = Math.ceil(this.ciphertextLimit / 3) * 4 + ENVELOPE_SLACK;
  }

  /** Counts plaintext or file bytes (input of encryption, output of decryption). */
  addContent(length: number): void {
    this.content += length;
    if (this.maxSize !== undefined && this.content > this.maxSize) throw tooLarge(this.maxSize, this.kind);
  }

  /** Counts envelope bytes read, so that endless whitespace or padding cannot go on for ever. */
  addEnvelope(length: number): void {
    this.envelope += length;
    if (this.envelope > this.envelopeLimit) throw tooLarge(this.maxSize!, this.kind);
  }

  addCiphertext(length: number): void {
    this.ciphertext += length;
    if (this.ciphertext > this.ciphertextLimit) throw tooLarge(this.maxSize!, this.kind);
  }
}
