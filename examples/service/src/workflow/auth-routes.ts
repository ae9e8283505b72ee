import { createHash, timingSafeEqual } from 'node:crypto';
import { type RequestHandler, Router } from 'express';
import { WorkflowHttpError } from './errors.js';
import type { TokenIssuer } from './tokens.js';

export const LOGIN_PATH = '/connect-auth/v1/account/login';
export const REFRESH_PATH = '/connect-auth/v1/account/refresh-token';

const field = (body: unknown, name: string): unknown =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

/** Field notes: login with `{client_id, client_secret}`, refresh with `{access_token, refresh_token}`. */
export function authRoutes(issuer: TokenIssuer, json: RequestHandler): Router {
  const router = Router();
  router.post(LOGIN_PATH, json, (req, res, next) => {
    const answer = issuer.login(field(req.body, 'client_id'), field(req.body, 'client_secret'));
    if (!answer) {
      next(
        new WorkflowHttpError(
          401,
          'auth.client.invalid',
          'ERR_INVALID_CLIENT',
          'Authentication failed: client id or client secret wrong. Check the credentials issued by the operator.',
        ),
      );
      return;
    }
    res.status(200).json(answer);
  });
  router.post(REFRESH_PATH, json, (req, res, next) => {
    const answer = issuer.refresh(field(req.body, 'access_token'), field(req.body, 'refresh_token'));
    if (!answer) {
      next(
        new WorkflowHttpError(
          401,
          'auth.refresh.invalid',
          'ERR_INVALID_REFRESH_TOKEN',
          'The refresh token is unknown, used already or expired: log in again with the client credentials.',
        ),
      );
      return;
    }
    res.status(200).json(answer);
  });
  return router;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Spec 5 for the workflow routes: an issued, live access token, or one of the static tokens. */
export function issuedTokenAuth(issuer: TokenIssuer, staticTokens: readonly string[] = []): RequestHandler {
  const accepted = staticTokens.map(digest);
  return (req, res, next) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const presented = token === undefined ? undefined : digest(token);
    if (
      token !== undefined &&
      (issuer.accepts(token) || accepted.some((candidate) => timingSafeEqual(candidate, presented!)))
    ) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="jwe-transport", error="invalid_token"');
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      // Do not read an unauthenticated upload; close instead of draining it.
      res.setHeader('Connection', 'close');
    }
    next(
      new WorkflowHttpError(
        401,
        'auth.token.invalid',
        'ERR_UNAUTHORIZED',
        'The access token is missing, expired or revoked: refresh it or log in again, and send it as "Authorization: Bearer <token>".',
      ),
    );
  };
}
