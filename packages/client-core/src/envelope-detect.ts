import { ENVELOPE_MEMBERS, type Envelope, isJweError, readEnvelope } from '@jwe-transport/codec';

const MEMBERS = new Set(ENVELOPE_MEMBERS);
const REQUIRED = ['iv', 'ciphertext', 'tag'] as const;
const OPEN_BRACE = 0x7b;
const utf8 = new TextDecoder();

function firstSignificantByte(body: Uint8Array): number | undefined {
  for (const byte of body) {
    // JSON whitespace: space, tab, line feed, carriage return.
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte;
  }
  return undefined;
}

/**
 * The envelope in `body`, or `undefined` when it is not one: a JSON object whose members are all
 * JWE members, with string `iv`, `ciphertext` and `tag`. A plain JSON answer that happens to have
 * an `iv` member among others is not an envelope.
 */
export function asEnvelope(body: Uint8Array): Envelope | undefined {
  // Most plain answers are not objects, or are HTML; skip decoding them.
  if (firstSignificantByte(body) !== OPEN_BRACE) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) if (!MEMBERS.has(name)) return undefined;
  for (const name of REQUIRED) if (typeof record[name] !== 'string') return undefined;
  return record as unknown as Envelope;
}

/**
 * The envelope in `body` as the codec reads it (strict UTF-8 and JSON, the envelope's shape), or
 * `undefined` when that read fails. Only a JSON object is read: a compact JWE is not an answer.
 */
export function strictEnvelope(body: Uint8Array): Envelope | undefined {
  if (firstSignificantByte(body) !== OPEN_BRACE) return undefined;
  try {
    return readEnvelope(body);
  } catch (error) {
    if (isJweError(error)) return undefined;
    throw error;
  }
}

/** The member names of a JSON object body, for messages; `undefined` when it is not an object. */
export function objectMembers(body: Uint8Array): string[] | undefined {
  if (firstSignificantByte(body) !== OPEN_BRACE) return undefined;
  try {
    const value: unknown = JSON.parse(utf8.decode(body));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.keys(value)
      : undefined;
  } catch {
    return undefined;
  }
}
