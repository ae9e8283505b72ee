import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { presentedToken } from './presented-token.js';
import { sendUnauthorized } from './unauthorized.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The principal that owns what the static `ACCESS_TOKENS` entry at `index` creates: each token is
 * its own owner, so one token's holder cannot read another token's documents.
 */
export const staticTokenOwner = (index: number) => `\0access-token:${index}`;

/**
 * Spec 5: every call carries `Authorization: Bearer <token>` (or `auth: <token>`): an access token issued by the login
 * endpoint, or one of the operator's static tokens. Runs before any body is read, so
 * unauthenticated uploads are refused without reading them. Static tokens are compared as hashes
 * in constant time. The caller goes to `res.locals.clientId`.
 */
export function bearerAuth(
  tokens: readonly string[],
  issued: (token: string) => string | undefined,
): RequestHandler {
  const accepted = tokens.map(digest);
  return (req, res, next) => {
    const token = presentedToken(req);
    if (token !== undefined) {
      const presented = digest(token);
      // Every candidate is compared, so the time taken does not say which token matched.
      let index = -1;
      accepted.forEach((candidate, position) => {
        if (timingSafeEqual(candidate, presented)) index = position;
      });
      const clientId = index >= 0 ? staticTokenOwner(index) : issued(token);
      if (clientId !== undefined) {
        res.locals.clientId = clientId;
        next();
        return;
      }
    }
    sendUnauthorized(
      req,
      res,
      'ERR_UNAUTHORIZED',
      'Send a valid access token as "Authorization: Bearer <token>" or "auth: <token>".',
    );
  };
}
