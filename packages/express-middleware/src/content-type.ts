import type { IncomingMessage } from 'node:http';
import { isEncryptedHeader } from '@jwe-transport/server-core';
import { charsetUnsupported } from './errors.js';

export function isMultipart(req: IncomingMessage): boolean {
  return /^\s*multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '');
}

/** Spec 4.1: `X-Encryption: JWE` or none; anything else (Node joins a repeated header) is a 400. */
export function isEncryptedRequest(req: IncomingMessage): boolean {
  return isEncryptedHeader(req.headers['x-encryption']);
}

/** Refuses a JSON body declared in another charset than UTF-8 (body-parser answers 415 too). */
export function assertUtf8(contentType: string | undefined): void {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '');
  if (match && match[1]!.toLowerCase() !== 'utf-8' && match[1]!.toLowerCase() !== 'utf8') {
    throw charsetUnsupported(match[1]!);
  }
}
