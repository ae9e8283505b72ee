import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Spec 5: every call carries `Authorization: Bearer <token>`. Runs before any body is read, so
 * unauthenticated uploads are refused without reading them. Tokens are compared as hashes in
 * constant time.
 */
export function bearerAuth(tokens: readonly string[]): RequestHandler {
  const accepted = tokens.map(digest);
  return (req, res, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const presented = match ? digest(match[1]!) : undefined;
    if (presented && accepted.some((token) => timingSafeEqual(token, presented))) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="jwe-transport"');
    // An unread body (an upload) would otherwise have to be drained before the connection is reused.
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) res.setHeader('Connection', 'close');
    res.status(401).json({
      error: {
        type: 'auth.required',
        code: 'ERR_UNAUTHORIZED',
        message: 'Send a valid access token as "Authorization: Bearer <token>".',
      },
    });
  };
}
