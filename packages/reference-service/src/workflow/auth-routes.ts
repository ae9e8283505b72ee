import type { Request, RequestHandler, Response } from 'express';
import { Router } from 'express';
import { WorkflowHttpError } from './errors.js';
import type { LoginLimiter } from './login-limiter.js';
import type { TokenIssuer } from './tokens.js';

export const LOGIN_PATH = '/connect-auth/v1/account/login';
export const REFRESH_PATH = '/connect-auth/v1/account/refresh-token';
/** The older refresh, `{refresh_token}` only: deprecated by the service but still used by one of its SDKs. */
export const LEGACY_REFRESH_PATH = '/connect-auth/v1/account/refresh';

const stringField = (body: unknown, name: string): string | undefined => {
  const value =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' && value.length <= 512 ? value : undefined;
};

export const bearerToken = (req: Request): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];

/** The `Client-Id` header the service's own clients send on every call (one value, or undefined). */
export const clientIdHeader = (req: Request): string | undefined => {
  const value = req.headers['client-id'];
  return typeof value === 'string' && value !== '' && value.length <= 512 ? value : undefined;
};

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

/**
 * docs/wire-format.md, "Auth": login with `{client_id, client_secret}`; refresh with the bearer
 * header, Client-Id and both tokens, or (deprecated) with the refresh token alone.
 */
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
    // The peer address, not X-Forwarded-For: this service is reached directly (no trusted proxy).
    const wait = limiter.attempt(clientId, req.socket.remoteAddress ?? 'unknown');
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      next(
        new WorkflowHttpError(
          429,
          'auth.rate_limited',
          'ERR_TOO_MANY_LOGINS',
          `Too many login attempts for this client id from this address: try again in ${wait} s.`,
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
  const answerRefresh = (
    outcome: ReturnType<TokenIssuer['refresh']>,
    res: Response,
    next: (error: unknown) => void,
  ) => {
    if (!outcome.ok) {
      const [code, message] = REFRESH_REFUSED[outcome.reason];
      next(new WorkflowHttpError(401, 'auth.refresh.invalid', code, message));
      return;
    }
    res.status(200).json(outcome.answer);
  };
  // Documented: `Authorization: Bearer <access_token>` and `Client-Id` are both required headers.
  router.post(REFRESH_PATH, json, (req, res, next) => {
    const accessToken = stringField(req.body, 'access_token');
    const refreshToken = stringField(req.body, 'refresh_token');
    const clientId = clientIdHeader(req);
    if (
      accessToken === undefined ||
      refreshToken === undefined ||
      bearerToken(req) !== accessToken ||
      clientId === undefined
    ) {
      next(
        new WorkflowHttpError(
          400,
          'auth.request.invalid',
          'ERR_INVALID_REQUEST',
          'Send "Authorization: Bearer <access_token>", "Client-Id: <client id>" and {"access_token", "refresh_token"} with the same access token.',
        ),
      );
      return;
    }
    answerRefresh(issuer.refresh(refreshToken, { accessToken, clientId }), res, next);
  });
  // Deprecated, still accepted: the refresh token alone, under the same rotation and reuse rules.
  router.post(LEGACY_REFRESH_PATH, json, (req, res, next) => {
    const refreshToken = stringField(req.body, 'refresh_token');
    if (refreshToken === undefined) {
      next(
        new WorkflowHttpError(400, 'auth.request.invalid', 'ERR_INVALID_REQUEST', 'Send {"refresh_token"}.'),
      );
      return;
    }
    res.setHeader('Deprecation', 'true');
    const clientId = clientIdHeader(req);
    answerRefresh(issuer.refresh(refreshToken, clientId === undefined ? {} : { clientId }), res, next);
  });
  return router;
}

/** Spec 5 for the workflow routes: a live issued access token; its client goes to `res.locals.clientId`. */
export function issuedTokenAuth(issuer: TokenIssuer): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    const clientId = token === undefined ? undefined : issuer.clientOf(token);
    // A `Client-Id` header is accepted on every call; when sent it must name the token's client.
    const named = clientIdHeader(req);
    if (clientId !== undefined && (named === undefined || named === clientId)) {
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
        clientId !== undefined ? 'ERR_CLIENT_ID_MISMATCH' : 'ERR_UNAUTHORIZED',
        clientId !== undefined
          ? 'The Client-Id header names another client than the access token was issued to: send your own client id.'
          : 'The access token is missing, expired or revoked: refresh it or log in again, and send it as "Authorization: Bearer <token>".',
      ),
    );
  };
}
