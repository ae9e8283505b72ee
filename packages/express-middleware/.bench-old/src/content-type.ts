import type { IncomingMessage } from 'node:http';

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

/** Spec 4.1: an encrypted request says so with `X-Encryption: JWE`. */
export function isEncryptedRequest(req: IncomingMessage): boolean {
  const header = req.headers['x-encryption'];
  return typeof header === 'string' && header.trim().toUpperCase() === 'JWE';
}
