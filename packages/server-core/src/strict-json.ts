import { parseFailed, plaintextInvalid } from './errors.js';

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
 * through silently: a member named twice in one object (the last one wins there, so two readers
 * of the same bytes can disagree) and `__proto__`/`constructor` members (prototype pollution in
 * code that merges the body into other objects). Linear in the text's length.
 */
export function checkMembers(text: string): void {
  const objects: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (expectKey) {
        const raw = text.slice(at + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(at, end + 1)) as string) : raw;
        if (FORBIDDEN_KEYS.has(key)) {
          throw plaintextInvalid(`The decrypted JSON has a "${key}" member, which this server refuses.`);
        }
        const seen = objects[objects.length - 1]!;
        if (seen.has(key)) {
          throw plaintextInvalid(
            'The decrypted JSON names a member twice in one object: send each member once.',
          );
        }
        seen.add(key);
        expectKey = false;
      }
      at = end;
    } else if (code === 0x7b /* { */) {
      objects.push(new Set());
      expectKey = true;
    } else if (code === 0x5b /* [ */) {
      objects.push(null);
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      objects.pop();
    } else if (code === 0x2c /* , */) {
      expectKey = objects[objects.length - 1] !== null;
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decrypted bytes to text; invalid UTF-8 is a client error, never a replacement character. */
export function decodeText(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw parseFailed(what);
  }
}

/** Decrypted JSON: its text (for handlers that read the body as text) and its value. */
export interface ParsedPlaintext {
  readonly text: string;
  readonly value: unknown;
}

/**
 * Parses the decrypted body. Empty plaintext is `{}`, as body-parser reads an empty body.
 * With `strict`, duplicate members and `__proto__`/`constructor` keys are a 400.
 */
export function parsePlaintext(plaintext: Uint8Array, strict: boolean): ParsedPlaintext {
  if (plaintext.length === 0) return { text: '', value: {} };
  const text = decodeText(plaintext, 'The decrypted body');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw parseFailed('The decrypted body');
  }
  if (strict && typeof value === 'object' && value !== null) checkMembers(text);
  return { text, value };
}

/** `parsePlaintext`'s value alone. */
export function parsePlaintextJson(plaintext: Uint8Array, strict: boolean): unknown {
  return parsePlaintext(plaintext, strict).value;
}
