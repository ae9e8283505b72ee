import type { IncomingMessage } from 'node:http';
import { charsetUnsupported, encryptionHeaderInvalid } from './errors.js';

/** `application/json`, `application/<x>+json`, with or without parameters. */
export function isJsonType(contentType: unknown): boolean {
  return (
    typeof contentType === 'string' &&
    /^\s*application\/([\w.!#$%&'*^`|~-]+\+)?json\s*(;|$)/i.test(contentType)
  );
}

export function isMultipart(req: IncomingMessage): boolean {
  return /^\s*multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '');
}

/**
 * Spec 4.1: an encrypted request says so with `X-Encryption: JWE`; a plain one sends no such
 * header. Anything else (another value, the header twice, which Node joins as "JWE, JWE") is
 * refused: reading such a request as plain would be a silent fallback.
 */
export function isEncryptedRequest(req: IncomingMessage): boolean {
  const header = req.headers['x-encryption'];
  if (header === undefined) return false;
  if (typeof header === 'string' && header.trim().toUpperCase() === 'JWE') return true;
  throw encryptionHeaderInvalid();
}

/** Refuses a JSON body declared in another charset than UTF-8 (body-parser answers 415 too). */
export function assertUtf8(contentType: string | undefined): void {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '');
  if (match && match[1]!.toLowerCase() !== 'utf-8' && match[1]!.toLowerCase() !== 'utf8') {
    throw charsetUnsupported(match[1]!);
  }
}
