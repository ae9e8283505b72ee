import { invalid, quote } from './errors.js';

/*
 * JSON.parse keeps the last of duplicate members silently, so `{"alg":"dir","alg":"RSA1_5"}` means
 * different things to different parsers. Protected headers are small, so before JSON.parse we walk
 * the text once and refuse duplicates and `__proto__` members at any depth.
 */

const FORBIDDEN_NAMES = new Set(['__proto__']);

function skipString(text: string, start: number): number {
  // start points at the opening quote; returns the index after the closing quote. indexOf jumps
  // over long values (a ciphertext is megabytes); a quote preceded by an odd run of backslashes
  // is escaped.
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}

function assertUniqueMembers(text: string, what: string, quoteNames: boolean): void {
  const stack: Array<Set<string> | null> = [];
  let expectName = false;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) {
      stack.push(new Set());
      expectName = true;
      i++;
    } else if (c === 91 /* [ */) {
      stack.push(null);
      expectName = false;
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      expectName = false;
      i++;
    } else if (c === 44 /* , */) {
      expectName = stack[stack.length - 1] instanceof Set;
      i++;
    } else if (c === 34 /* " */) {
      const end = skipString(text, i);
      const members = stack[stack.length - 1];
      if (expectName && members) {
        // Without a backslash the characters between the quotes are the name itself.
        const raw = text.slice(i + 1, end - 1);
        const name = raw.indexOf('\\') === -1 ? raw : (JSON.parse(text.slice(i, end)) as string);
        const shown = () => (quoteNames ? ` ${quote(name)}` : '');
        if (FORBIDDEN_NAMES.has(name)) throw invalid(`${what} contains a forbidden member name${shown()}.`);
        if (members.has(name)) throw invalid(`${what} contains a member${shown()} more than once.`);
        members.add(name);
        expectName = false;
      }
      i = end;
    } else {
      i++;
    }
  }
}

/**
 * Parses JSON text that must be an object, rejecting duplicate and `__proto__` members.
 * `quoteNames: false` keeps member names out of error messages, for decrypted (secret) content.
 */
export function parseStrictJsonObject(
  text: string,
  what: string,
  { quoteNames = true }: { quoteNames?: boolean } = {},
): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(`${what} is not valid JSON.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${what} must be a JSON object.`);
  }
  assertUniqueMembers(text, what, quoteNames);
  return value as Record<string, unknown>;
}
