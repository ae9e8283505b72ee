import { isObject } from './object.js';

const COMPACT = /^[A-Za-z0-9_=-]*\.[A-Za-z0-9_=-]*\.[A-Za-z0-9_=-]*\.[A-Za-z0-9_=-]*\.[A-Za-z0-9_=-]*$/;
const ENVELOPE_MEMBERS = ['iv', 'ciphertext', 'tag'];

export function isHar(value: unknown): value is Record<string, unknown> {
  return isObject(value) && isObject(value.log) && Array.isArray(value.log.entries);
}

export function isEnvelopeObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && ENVELOPE_MEMBERS.every((name) => name in value);
}

export function isCompactText(text: string): boolean {
  return COMPACT.test(text);
}
