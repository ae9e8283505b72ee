import { isCompactText, isEnvelopeObject, isHar } from './classify-shapes.js';
import { InspectError } from './errors.js';
import {
  type HttpMessage,
  isMarkedEncrypted,
  looksLikeHttpMessage,
  parseHttpMessage,
} from './http-message.js';
import { envelopeInLogLine } from './log-line.js';
import { isObject } from './object.js';

export { isCompactText, isEnvelopeObject, isHar } from './classify-shapes.js';

/** What an input turned out to be; each kind is decrypted and shown in its own way. */
export type ClassifiedInput =
  | { kind: 'envelope'; text: string }
  | { kind: 'compact'; text: string }
  | { kind: 'http'; message: HttpMessage }
  | { kind: 'har'; document: Record<string, unknown> };

/** True when a captured body is an envelope in either serialization (used to spot encrypted HAR bodies). */
export function looksLikeEnvelope(body: string): boolean {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      return isEnvelopeObject(JSON.parse(text));
    } catch {
      return false;
    }
  }
  return isCompactText(text);
}

function notAnEnvelope(message: string): InspectError {
  return new InspectError('ERR_NOT_AN_ENVELOPE', message);
}

/**
 * Recognises a flattened envelope, a compact JWE, a captured HTTP message or a HAR file. A JSON
 * string holding an envelope (as copied from a log line) is unwrapped first.
 */
export function classifyInput(raw: string, name: string): ClassifiedInput {
  const text = raw.replace(/^\uFEFF/, '').trim();
  if (text === '')
    throw notAnEnvelope(
      `${name} is empty: expected an envelope, a compact JWE, an HTTP message or a HAR file.`,
    );
  if (text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw notAnEnvelope(
        `${name} starts like JSON but is not valid JSON. Was it truncated when it was copied?`,
      );
    }
    if (isHar(value)) return { kind: 'har', document: value };
    if (
      isObject(value) &&
      ('ciphertext' in value || 'iv' in value || 'tag' in value || 'protected' in value)
    ) {
      return { kind: 'envelope', text };
    }
    throw notAnEnvelope(
      `${name} is JSON but neither an envelope (members iv, ciphertext, tag) nor a HAR file (log.entries). ` +
        'If it is already plaintext there is nothing to decrypt.',
    );
  }
  if (text.startsWith('"')) {
    let inner: unknown;
    try {
      inner = JSON.parse(text);
    } catch {
      inner = undefined;
    }
    if (typeof inner === 'string') return classifyInput(inner, name);
  }
  if (looksLikeHttpMessage(text)) return { kind: 'http', message: parseHttpMessage(text) };
  if (isCompactText(text)) return { kind: 'compact', text };
  const inLine = envelopeInLogLine(text);
  if (inLine !== undefined)
    return inLine.startsWith('{') ? { kind: 'envelope', text: inLine } : { kind: 'compact', text: inLine };
  throw notAnEnvelope(
    `${name} is not an envelope: expected flattened JSON ({"protected", "iv", "ciphertext", "tag"}), ` +
      'a compact JWE (five dot-separated parts), a captured HTTP message or a HAR file.',
  );
}

/** The envelope in a captured HTTP message's body, or a clear error when the body is something else. */
export function requireEnvelopeBody(message: HttpMessage): string {
  const body = message.body.trim();
  if (looksLikeEnvelope(body)) return body;
  const marked = isMarkedEncrypted(message.headers)
    ? ' although the message is marked X-Encryption: JWE'
    : '';
  throw new InspectError(
    'ERR_NOT_AN_ENVELOPE',
    `The body of "${message.startLine}" is not an envelope${marked}: ${body === '' ? 'it is empty' : 'it is neither flattened JSON with iv, ciphertext and tag nor a compact JWE'}.`,
  );
}
