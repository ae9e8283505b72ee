import { InspectError } from './errors.js';

/**
 * JSON.parse whose error names only the input, never a snippet of it: V8's SyntaxError quotes the
 * text around the mistake, which for a captured body may be plaintext.
 */
export function parseJsonQuietly(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InspectError(
      'ERR_NOT_AN_ENVELOPE',
      `${what} is not valid JSON. Was it truncated when it was copied?`,
    );
  }
}
