import { invalid } from './errors.js';

/*
 * JSON.parse keeps the last of duplicate members silently, so `{"alg":"dir","alg":"RSA1_5"}` means
 * different things to different parsers. Protected headers are small, so before JSON.parse we walk
 * the text once and refuse duplicates and `__proto__` members at any depth.
 */

const FORBIDDEN_NAMES = new Set(['__proto__']);

function skipString(text: string, start: number): number {
  // start points at the opening quote; returns the index after the closing quote.
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return text.length;
}

function assertUniqueMembers(text: string, what: string): void {
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
        const name = JSON.parse(text.slice(i, end)) as string;
        if (FORBIDDEN_NAMES.has(name)) throw invalid(`${what} contains a forbidden member name "${name}".`);
        if (members.has(name)) throw invalid(`${what} contains the member "${name}" more than once.`);
        members.add(name);
        expectName = false;
      }
      i = end;
    } else {
      i++;
    }
  }
}

/** Parses JSON text that must be an object, rejecting duplicate and `__proto__` members. */
export function parseStrictJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(`${what} is not valid JSON.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${what} must be a JSON object.`);
  }
  assertUniqueMembers(text, what);
  return value as Record<string, unknown>;
}
