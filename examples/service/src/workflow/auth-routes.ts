import type { Request, RequestHandler, Response } from 'express';
import { Router } from 'express';
import { WorkflowHttpError } from './errors.js';
import type { LoginLimiter } from './login-limiter.js';
import type { TokenIssuer } from './tokens.js';

export const LOGIN_PATH = '/connect-auth/v1/account/login';
export const REFRESH_PATH = '/connect-auth/v1/account/refresh-token';

const stringField = (body: unknown, name: string): string | undefined => {
  const value =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' && value.length <= 512 ? value : undefined;
};

export const bearerToken = (req: Request): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];

const REFRESH_REFUSED: Record<'unknown' | 'mismatch' | 'reused', [string, string]> = {
  unknown: [
    'ERR_INVALID_REFRESH_TOKEN',
    'The refresh token is unknown, used already or expired: log in again with the client credentials.',
  ],
  mismatch: [
    'ERR_TOKEN_PAIR_MISMATCH',
    'The access token was not issued together with this refresh token: send the pair of the last login or refresh.',
  ],
  reused: [
    'ERR_REFRESH_TOKEN_REUSED',
    'This refresh token was used already, so it may have leaked: every token of this login is revoked. Log in again.',
  ],
};

/** Field notes: login with `{client_id, client_secret}`; refresh with the bearer header and both tokens. */
export function authRoutes(issuer: TokenIssuer, limiter: LoginLimiter, json: RequestHandler): Router {
  const router = Router();
  router.post(LOGIN_PATH, json, (req, res: Response, next) => {
    const clientId = stringField(req.body, 'client_id');
    const clientSecret = stringField(req.body, 'client_secret');
    if (clientId === undefined || clientSecret === undefined) {
      next(
        new WorkflowHttpError(
          400,
          'auth.request.invalid',
          'ERR_INVALID_REQUEST',
          'Send {"client_id", "client_secret"}.',
        ),
      );
      return;
    }
    const wait = limiter.attempt(clientId);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      next(
        new WorkflowHttpError(
          429,
          'auth.rate_limited',
          'ERR_TOO_MANY_LOGINS',
          `Too many login attempts for this client id: try again in ${wait} s.`,
        ),
      );
      return;
    }
    const answer = issuer.login(clientId, clientSecret);
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
    const accessToken = stringField(req.body, 'access_token');
    const refreshToken = stringField(req.body, 'refresh_token');
    if (accessToken === undefined || refreshToken === undefined || bearerToken(req) !== accessToken) {
      next(
        new WorkflowHttpError(
          400,
          'auth.request.invalid',
          'ERR_INVALID_REQUEST',
          'Send "Authorization: Bearer <access_token>" and {"access_token", "refresh_token"} with the same access token.',
        ),
      );
      return;
    }
    const outcome = issuer.refresh(accessToken, refreshToken);
    if (!outcome.ok) {
      const [code, message] = REFRESH_REFUSED[outcome.reason];
      next(new WorkflowHttpError(401, 'auth.refresh.invalid', code, message));
      return;
    }
    res.status(200).json(outcome.answer);
  });
  return router;
}

/** Spec 5 for the workflow routes: a live issued access token; its client goes to `res.locals.clientId`. */
export function issuedTokenAuth(issuer: TokenIssuer): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    const clientId = token === undefined ? undefined : issuer.clientOf(token);
    if (clientId !== undefined) {
      res.locals.clientId = clientId;
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="jwe-transport", error="invalid_token"');
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      // Do not read an unauthenticated body; close instead of draining it.
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
