import type { Request, RequestHandler, Response } from 'express';
import { Router } from 'express';
import { presentedToken } from '../presented-token.js';
import { sendUnauthorized } from '../unauthorized.js';
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
      sendUnauthorized(
        req,
        res,
        'ERR_INVALID_CLIENT',
        'Authentication failed: client id or client secret wrong. Check the credentials issued by the operator.',
      );
      return;
    }
    res.status(200).json(answer);
  });
  const answerRefresh = (outcome: ReturnType<TokenIssuer['refresh']>, req: Request, res: Response) => {
    if (!outcome.ok) {
      const [code, message] = REFRESH_REFUSED[outcome.reason];
      sendUnauthorized(req, res, code, message);
      return;
    }
    res.status(200).json(outcome.answer);
  };
  // Only a `Client-Id` naming an API client is checked against the tokens' client; an application
  // name (`doc-web`) is not a claim about whose tokens these are.
  const apiClientNamed = (req: Request) => {
    const named = clientIdHeader(req);
    return named !== undefined && issuer.isApiClient(named) ? named : undefined;
  };
  // Documented: the access token header (`Authorization: Bearer` or `auth`) and `Client-Id` are
  // required; the body's `access_token` is optional and, when sent, must be the same token.
  router.post(REFRESH_PATH, json, (req, res, next) => {
    const bodyAccessToken = stringField(req.body, 'access_token');
    const refreshToken = stringField(req.body, 'refresh_token');
    const accessToken = presentedToken(req);
    if (
      accessToken === undefined ||
      refreshToken === undefined ||
      (bodyAccessToken !== undefined && bodyAccessToken !== accessToken) ||
      clientIdHeader(req) === undefined
    ) {
      next(
        new WorkflowHttpError(
          400,
          'auth.request.invalid',
          'ERR_INVALID_REQUEST',
          'Send "Authorization: Bearer <access_token>" (or "auth: <access_token>"), "Client-Id: <client id>" and {"refresh_token"}; an "access_token" member, when sent, must be the same access token.',
        ),
      );
      return;
    }
    const clientId = apiClientNamed(req);
    answerRefresh(
      issuer.refresh(refreshToken, clientId === undefined ? { accessToken } : { accessToken, clientId }),
      req,
      res,
    );
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
    const clientId = apiClientNamed(req);
    answerRefresh(issuer.refresh(refreshToken, clientId === undefined ? {} : { clientId }), req, res);
  });
  return router;
}

/**
 * Spec 5 for the workflow routes: a live issued access token (`Authorization: Bearer` or `auth`);
 * its client goes to `res.locals.clientId`. A `Client-Id` header naming another API client is
 * refused; an application name such as the JavaScript SDK's `doc-web` is accepted.
 */
export function issuedTokenAuth(issuer: TokenIssuer): RequestHandler {
  return (req, res, next) => {
    const token = presentedToken(req);
    const clientId = token === undefined ? undefined : issuer.clientOf(token);
    const named = clientIdHeader(req);
    const namesAnother = named !== undefined && named !== clientId && issuer.isApiClient(named);
    if (clientId !== undefined && !namesAnother) {
      res.locals.clientId = clientId;
      next();
      return;
    }
    const challenge = 'Bearer realm="jwe-transport", error="invalid_token"';
    if (clientId !== undefined) {
      sendUnauthorized(
        req,
        res,
        'ERR_CLIENT_ID_MISMATCH',
        'The Client-Id header names another API client than the access token was issued to: send your own client id.',
        challenge,
      );
      return;
    }
    sendUnauthorized(
      req,
      res,
      'ERR_UNAUTHORIZED',
      'The access token is missing, expired or revoked: refresh it or log in again, and send it as "Authorization: Bearer <token>" or "auth: <token>".',
      challenge,
    );
  };
}
