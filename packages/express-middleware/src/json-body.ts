import { checkMembers } from '@jwe-transport/server-core';
import { parseFailed } from './errors.js';

export interface JsonRules {
  /** Only an object or an array at the top (body-parser's `strict`). */
  strict: boolean;
  /** Refuse duplicate and `__proto__`/`constructor` members (decrypted bodies). */
  members: boolean;
}

function startsLikeContainer(text: string): boolean {
  const first = text.trimStart().charCodeAt(0);
  return first === 123 || first === 91;
}

/** Parses a decrypted or plain JSON body; an empty body is `{}`, as body-parser makes it. */
export function parseJsonBody(bytes: Uint8Array, what: string, rules: JsonRules): unknown {
  if (bytes.length === 0) return {};
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // A UTF-8 byte order mark is not JSON but some clients write one; body-parser drops it too.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (rules.strict && !startsLikeContainer(text)) throw parseFailed(what, 'must be a JSON object or array');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw parseFailed(what, 'is not valid JSON');
  }
  if (rules.members && value !== null && typeof value === 'object') checkMembers(text);
  return value;
}
