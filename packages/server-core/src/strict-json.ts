import { jsonTooDeep, parseFailed, plaintextInvalid } from './errors.js';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote that closes the string opened at `start`, skipping escaped quotes. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/**
 * Walks JSON text that `JSON.parse` has already accepted and refuses what `JSON.parse` lets
 * through silently: nesting deeper than `maxDepth` (reflecting such a value, as `JSON.stringify`
 * or a validator does, overflows the stack: a 5xx a client could cause at will) and, with
 * `members`, a member named twice in one object (the last one wins there, so two readers of the
 * same bytes can disagree) and `__proto__`/`constructor` members (prototype pollution in code
 * that merges the body into other objects). Linear in the text's length.
 */
export function checkJsonText(text: string, what: string, members: boolean, maxDepth: number): void {
  const objects: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (expectKey && members) {
        const raw = text.slice(at + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(at, end + 1)) as string) : raw;
        if (FORBIDDEN_KEYS.has(key)) {
          throw plaintextInvalid(`${what} has a "${key}" member, which this server refuses.`);
        }
        const seen = objects[objects.length - 1]!;
        if (seen.has(key)) {
          throw plaintextInvalid(`${what} names a member twice in one object: send each member once.`);
        }
        seen.add(key);
      }
      expectKey = false;
      at = end;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (objects.length === maxDepth) throw jsonTooDeep(what, maxDepth);
      objects.push(code === 0x7b && members ? new Set() : null);
      expectKey = code === 0x7b;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      objects.pop();
    } else if (code === 0x2c /* , */) {
      expectKey = objects[objects.length - 1] !== null;
    }
  }
}

/** `checkJsonText` for the decrypted body, with the default depth limit. */
export function checkMembers(text: string): void {
  checkJsonText(text, 'The decrypted JSON', true, DEFAULT_MAX_DEPTH);
}

/** How deep decrypted or plain JSON may nest by default (the `maxDepth` option). */
export const DEFAULT_MAX_DEPTH = 1000;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Body bytes to text; invalid UTF-8 is a client error, never a replacement character. */
export function decodeText(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw parseFailed(what, 'is not valid UTF-8');
  }
}

/** Decrypted JSON: its text (for handlers that read the body as text) and its value. */
export interface ParsedPlaintext {
  readonly text: string;
  readonly value: unknown;
}

/** How a JSON body is read; every adapter reads plain and decrypted JSON through `parseJsonBody`. */
export interface JsonRules {
  /** Refuse duplicate and `__proto__`/`constructor` members (400 `jwe.plaintext.invalid`). */
  strictJson: boolean;
  /** Deepest nesting of objects and arrays accepted (400 `ERR_JSON_TOO_DEEP`). */
  maxDepth: number;
}

/**
 * Parses a JSON body strictly: UTF-8 only (a byte order mark is dropped, as body-parser does),
 * any JSON value at the top (`null`, numbers and strings included, as JSON allows), nesting
 * within `maxDepth`, and with `strictJson` no duplicate or `__proto__`/`constructor` members.
 * An empty body is refused: an envelope always carries JSON, and a plain body that declares
 * JSON must hold some.
 */
export function parseJsonBody(bytes: Uint8Array, what: string, rules: JsonRules): ParsedPlaintext {
  if (bytes.length === 0) throw parseFailed(what, 'is empty');
  const text = decodeText(bytes, what);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw parseFailed(what);
  }
  if (typeof value === 'object' && value !== null)
    checkJsonText(text, what, rules.strictJson, rules.maxDepth);
  return { text, value };
}

/** The decrypted body, parsed with `parseJsonBody`'s rules. */
export function parsePlaintext(
  plaintext: Uint8Array,
  strict: boolean,
  maxDepth = DEFAULT_MAX_DEPTH,
): ParsedPlaintext {
  return parseJsonBody(plaintext, 'The decrypted body', { strictJson: strict, maxDepth });
}

/** `parsePlaintext`'s value alone. */
export function parsePlaintextJson(
  plaintext: Uint8Array,
  strict: boolean,
  maxDepth = DEFAULT_MAX_DEPTH,
): unknown {
  return parsePlaintext(plaintext, strict, maxDepth).value;
}
