/**
 * Typed access to the shared JWE test vectors (format: README.md beside this file).
 * Import from a package's tests with a relative path, e.g.
 * `import { loadVectors } from '../../../test-vectors/index.js'`.
 */
import { readFileSync } from 'node:fs';
import type { JweErrorCode } from '../packages/codec/src/errors.js';

export type { JweErrorCode };

/** A flattened JWE as found in the files (members exactly as sent on the wire). */
export interface VectorEnvelope {
  protected?: string;
  encrypted_key?: string;
  iv: string;
  ciphertext: string;
  tag: string;
  kid?: string;
}

/** Plaintext bytes as standard base64, plus the text when the bytes are valid UTF-8. */
export interface VectorPlaintext {
  base64: string;
  text?: string;
}

export interface EnvelopeVector {
  name: string;
  description: string;
  /** Who made the envelope: our codec, the reference node:crypto builder, or an independent peer. */
  producer: 'jwe-transport' | 'reference' | 'jwcrypto' | 'jose-c';
  /** text: a UTF-8 string; json: JSON text (`json` holds the value); file: `{"file":"<base64>"}`; bytes: anything. */
  kind: 'text' | 'json' | 'bytes' | 'file';
  /** The shared key string (16 bytes of UTF-8); the content key is this string twice, as UTF-8. */
  key: string;
  /** The top-level `kid`, when the envelope has one. */
  kid?: string;
  /** The exact decrypted bytes (what `decrypt` returns). */
  plaintext: VectorPlaintext;
  /** kind json: the parsed value (what `decryptJson` returns). */
  json?: unknown;
  /** kind file: the file bytes as standard base64 (what `decryptFile` returns). */
  file?: { base64: string };
  protected: string;
  iv: string;
  envelope: VectorEnvelope;
  /** `protected..iv.ciphertext.tag` (the compact form carries no kid). */
  compact: string;
}

export interface MalformedCase {
  name: string;
  description: string;
  key: string;
  /** When present, decrypt with a keyring of these keys (`{ kid: sharedKey }`) instead of `key`. */
  keys?: Record<string, string>;
  /** Options to pass to decrypt, e.g. `{ missingProtected: 'reject' }`. */
  options?: { missingProtected?: 'infer' | 'rfc' | 'reject' };
  /** An envelope object (possibly of the wrong shape), envelope JSON text, or a compact string. */
  input: unknown;
  /** The JweError code decrypt must fail with. */
  code: JweErrorCode;
}

export type ResponseOutcome =
  | { headerSource: 'none' | 'assumed-compact' | 'assumed-spaced' }
  | { code: JweErrorCode };

export interface ResponseVector {
  name: string;
  description: string;
  key: string;
  plaintext: VectorPlaintext;
  /** A response envelope: no `protected` member. */
  envelope: VectorEnvelope;
  /** What decrypt gives under each `missingProtected` policy. */
  expected: { infer: ResponseOutcome; rfc: ResponseOutcome; reject: ResponseOutcome };
}

function read<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as T;
}

/** Positive vectors (`envelopes.json`): each must decrypt to its plaintext. */
export function loadVectors(): EnvelopeVector[] {
  return read<{ vectors: EnvelopeVector[] }>('./envelopes.json').vectors;
}

/** Negative cases (`malformed.json`): each must fail with its `code`. */
export function loadMalformed(): MalformedCase[] {
  return read<{ cases: MalformedCase[] }>('./malformed.json').cases;
}

/** Response envelopes without `protected` (`responses.json`). */
export function loadResponses(): ResponseVector[] {
  return read<{ responses: ResponseVector[] }>('./responses.json').responses;
}

/** The plaintext bytes of a vector. */
export function plaintextBytes(plaintext: VectorPlaintext): Uint8Array {
  const binary = atob(plaintext.base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
