import { parseFailed, plaintextInvalid } from './errors.js';

/*
 * JSON.parse keeps the last of two members with the same name, and `__proto__` or `constructor`
 * members reach code that merges objects. An envelope authenticates the bytes, not one reading of
 * them, so decrypted JSON is refused when two parsers could disagree on it or when it names a
 * prototype. One pass over the text: strings are skipped with indexOf, so long values cost little.
 */

const FORBIDDEN = new Set(['__proto__', 'constructor']);
const QUOTE = 34;
const BACKSLASH = 92;

/** The index just past the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}

/** Why `text` (already valid JSON) is unsafe to hand on, or `undefined` when it is not. */
function memberProblem(text: string): string | undefined {
  // One entry per open container: the names seen so far in an object, null for an array.
  const open: Array<Set<string> | null> = [];
  let expectName = false;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const names = open[open.length - 1];
      if (expectName && names) {
        const raw = text.slice(i + 1, end - 1);
        const name = raw.indexOf('\\') === -1 ? raw : (JSON.parse(text.slice(i, end)) as string);
        if (FORBIDDEN.has(name)) return 'has a "__proto__" or "constructor" member';
        if (names.has(name)) return 'has a member more than once';
        names.add(name);
        expectName = false;
      }
      i = end;
      continue;
    }
    if (c === 123 /* { */) {
      open.push(new Set());
      expectName = true;
    } else if (c === 91 /* [ */) {
      open.push(null);
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      open.pop();
    } else if (c === 44 /* , */) {
      expectName = open[open.length - 1] instanceof Set;
    }
    i++;
  }
  return undefined;
}

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
  if (rules.members && value !== null && typeof value === 'object') {
    const problem = memberProblem(text);
    if (problem) throw plaintextInvalid(problem);
  }
  return value;
}
