import { invalid, JweError, quote } from './errors.js';
import { decodeUtf8 } from './header.js';
import { parseStrictJsonObject } from './strict-json.js';

/**
 * A JWE in flattened JSON serialization (RFC 7516 section 7.2.2), as this service sends it:
 * `kid` travels top-level, outside the protected header, and selects the key.
 * Response envelopes may lack `protected` (see `DecryptOptions.missingProtected`).
 */
export interface Envelope {
  /** Key id; not authenticated, it only selects the key. Our encoders write it first. */
  kid?: string;
  protected?: string;
  iv: string;
  ciphertext: string;
  tag: string;
  /** Always empty for `dir`; accepted when present so that generic JOSE output parses. */
  encrypted_key?: string;
  /** RFC 7516 additional authenticated data (base64url), authenticated but not encrypted. */
  aad?: string;
  /** Per-recipient unprotected header (not authenticated). */
  header?: Record<string, unknown>;
  /** Shared unprotected header (not authenticated). */
  unprotected?: Record<string, unknown>;
}

/** What `decrypt` and friends accept: an envelope object, its JSON text or bytes, or a compact JWE. */
export type EnvelopeInput = Envelope | string | Uint8Array;

const STRING_MEMBERS = ['protected', 'iv', 'ciphertext', 'tag', 'kid', 'encrypted_key', 'aad'] as const;
const OBJECT_MEMBERS = ['header', 'unprotected'] as const;
/** Every member a flattened envelope may have; anything else is refused by `parseEnvelope`. */
export const ENVELOPE_MEMBERS: readonly string[] = [...STRING_MEMBERS, ...OBJECT_MEMBERS];
const KNOWN_MEMBERS = new Set<string>(ENVELOPE_MEMBERS);
const REQUIRED_MEMBERS = ['iv', 'ciphertext', 'tag'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array)
  );
}

/**
 * Checks that a value has the shape of a flattened envelope: the required string members, no
 * unknown members, `encrypted_key` empty. Base64url content is checked when it is decoded.
 */
export function parseEnvelope(value: unknown): Envelope {
  if (!isPlainObject(value)) throw invalid('A JWE envelope must be a JSON object.');
  if ('recipients' in value) {
    throw new JweError(
      'ERR_JWE_UNSUPPORTED',
      'General JWE JSON serialization ("recipients") is not supported: send the flattened form.',
    );
  }
  for (const name of Object.keys(value)) {
    if (!KNOWN_MEMBERS.has(name)) {
      throw invalid(
        `The envelope has an unexpected member ${quote(name)}; expected kid, protected, iv, ciphertext, tag.`,
      );
    }
  }
  for (const name of REQUIRED_MEMBERS) {
    if (!(name in value)) throw invalid(`The envelope is missing its "${name}" member.`);
  }
  // Spelled out member by member (in STRING_MEMBERS order, then OBJECT_MEMBERS) rather than
  // looped over: lookups by a literal name are several times cheaper than by a variable one.
  const wrongType = (name: string, type: string) => invalid(`The envelope's "${name}" must be ${type}.`);
  if ('protected' in value && typeof value.protected !== 'string') throw wrongType('protected', 'a string');
  if (typeof value.iv !== 'string') throw wrongType('iv', 'a string');
  if (typeof value.ciphertext !== 'string') throw wrongType('ciphertext', 'a string');
  if (typeof value.tag !== 'string') throw wrongType('tag', 'a string');
  if ('kid' in value && typeof value.kid !== 'string') throw wrongType('kid', 'a string');
  if ('encrypted_key' in value && typeof value.encrypted_key !== 'string')
    throw wrongType('encrypted_key', 'a string');
  if ('aad' in value && typeof value.aad !== 'string') throw wrongType('aad', 'a string');
  if ('header' in value && !isPlainObject(value.header)) throw wrongType('header', 'a JSON object');
  if ('unprotected' in value && !isPlainObject(value.unprotected))
    throw wrongType('unprotected', 'a JSON object');
  if (value.encrypted_key !== undefined && value.encrypted_key !== '') {
    throw new JweError('ERR_JWE_UNSUPPORTED', 'A "dir" envelope must have an empty encrypted_key.');
  }
  return value as unknown as Envelope;
}

/**
 * The compact serialization `protected..iv.ciphertext.tag` (docs/wire-format.md#compact-form).
 * Compact JWE has no place for the top-level `kid`, so it is dropped; keep it alongside if the
 * receiver needs it.
 */
export function toCompact(envelope: Envelope): string {
  const env = parseEnvelope(envelope);
  if (env.protected === undefined) {
    throw invalid('Compact serialization needs a protected header; this envelope has none.');
  }
  if (env.aad !== undefined || env.header !== undefined || env.unprotected !== undefined) {
    throw invalid('Envelopes with "aad" or unprotected headers have no compact serialization.');
  }
  return `${env.protected}..${env.iv}.${env.ciphertext}.${env.tag}`;
}

/** Parses `protected..iv.ciphertext.tag` into an envelope. Stops at the fifth dot, so huge junk fails fast. */
export function fromCompact(text: string): Envelope {
  if (typeof text !== 'string') throw invalid('A compact JWE must be a string.');
  const dots: number[] = [];
  for (let at = text.indexOf('.'); at !== -1; at = text.indexOf('.', at + 1)) {
    if (dots.length === 4)
      throw invalid('A compact JWE has exactly five dot-separated parts; this one has more.');
    dots.push(at);
  }
  if (dots.length !== 4) {
    throw invalid(`A compact JWE has exactly five dot-separated parts; this one has ${dots.length + 1}.`);
  }
  const [d1, d2, d3, d4] = dots as [number, number, number, number];
  if (d2 !== d1 + 1) throw invalid('The encrypted-key part of a "dir" compact JWE must be empty.');
  return {
    protected: text.slice(0, d1),
    iv: text.slice(d2 + 1, d3),
    ciphertext: text.slice(d3 + 1, d4),
    tag: text.slice(d4 + 1),
  };
}

function parseText(text: string): Envelope {
  const start = text.search(/\S/);
  if (start === -1) throw invalid('The input is empty: expected a JWE envelope (JSON) or a compact JWE.');
  if (text.charCodeAt(start) === 123 /* { */)
    return parseEnvelope(parseStrictJsonObject(text, 'The envelope JSON'));
  return fromCompact(text.trim());
}

/**
 * Any accepted input form as an envelope object, with the checks decryption makes before it
 * touches a key: strict UTF-8 and JSON (no duplicate members), the envelope's shape, or the
 * compact form's five parts. Throws `ERR_JWE_INVALID` (or `ERR_JWE_UNSUPPORTED`) otherwise.
 */
export function readEnvelope(input: EnvelopeInput): Envelope {
  if (typeof input === 'string') return parseText(input);
  if (input instanceof Uint8Array) return parseText(decodeUtf8(input, 'The envelope'));
  return parseEnvelope(input);
}
