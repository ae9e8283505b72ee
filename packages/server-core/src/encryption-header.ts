import { headerInvalid } from './errors.js';

/**
 * Reads `X-Encryption` (spec 4.1). Absent: a plain request. `JWE` (any case): encrypted. Anything
 * else, including the header twice (`JWE, JWE` once joined), is refused: a request that may have
 * meant to be encrypted is never silently read as plain.
 */
export function isEncryptedHeader(value: string | readonly string[] | null | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'string') {
    if (value.length === 1) return isEncryptedHeader(value[0]);
    throw headerInvalid('X-Encryption was sent more than once: send it once, with the value "JWE".');
  }
  const text = value.trim();
  if (text.includes(',')) {
    throw headerInvalid('X-Encryption was sent more than once: send it once, with the value "JWE".');
  }
  if (text.toUpperCase() === 'JWE') return true;
  throw headerInvalid(
    `X-Encryption ${JSON.stringify(text.slice(0, 20))} is not supported: send "X-Encryption: JWE" with an envelope, or no X-Encryption header.`,
  );
}

/** `application/json`, `application/<x>+json`, with or without parameters. */
export function isJsonType(contentType: string | null | undefined): boolean {
  return (
    typeof contentType === 'string' &&
    /^\s*application\/([\w.!#$%&'*^`|~-]+\+)?json\s*(;|$)/i.test(contentType)
  );
}

/** Whether an answer with this status may carry a body at all. */
export function carriesBody(status: number): boolean {
  return status !== 204 && status !== 205 && status !== 304 && !(status >= 100 && status < 200);
}
