import { defaultFetch, type FetchLike, parseBaseUrl, send, serviceUrl } from '../http/fetch-like.js';
import { AuthError, type AuthOperation, refusedMessage } from './errors.js';
import { checkTokenHeader, type TokenHeader, tokenHeaders } from './token-header.js';
import { parseTokenAnswer, type TokenPair } from './tokens.js';

/** docs/wire-format.md, "Transcription workflow" (auth): the documented login and refresh paths. */
export const LOGIN_PATH = '/connect-auth/v1/account/login';
export const REFRESH_PATH = '/connect-auth/v1/account/refresh-token';

export interface AuthEndpointOptions {
  /** The service's base address, e.g. `https://api.example.com`. */
  baseUrl: string | URL;
  /** Default {@link LOGIN_PATH} or {@link REFRESH_PATH}. */
  path?: string;
  /** Any fetch-compatible function. Default: the global fetch. */
  fetch?: FetchLike;
  /**
   * Sent as the `Client-Id` header, which the documented refresh requires (and the service's own
   * clients send on every call). `refreshTokenExchange()` needs it for the documented path.
   */
  clientId?: string;
  /**
   * How the refresh call sends the access token: `'authorization'` (default, `Authorization:
   * Bearer <token>`) or `'auth'` (`auth: <token>`).
   */
  tokenHeader?: TokenHeader;
}

export interface ClientCredentials extends AuthEndpointOptions {
  clientId: string;
  clientSecret: string;
}

function endpointUrl(options: AuthEndpointOptions, defaultPath: string): URL {
  return serviceUrl(parseBaseUrl(options.baseUrl, 'auth'), options.path ?? defaultPath);
}

async function postJson(
  url: URL,
  body: object,
  operation: AuthOperation,
  fetchImpl: FetchLike,
  extra: { bearer?: string | undefined; clientId?: string | undefined; tokenHeader?: TokenHeader } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (extra.bearer !== undefined) Object.assign(headers, tokenHeaders(extra.bearer, extra.tokenHeader));
  if (extra.clientId !== undefined) headers['client-id'] = extra.clientId;
  let response: Response;
  try {
    response = await send(fetchImpl, url, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    throw new AuthError(
      'ERR_AUTH_UNREACHABLE',
      `Could not reach the ${operation} endpoint ${url.origin}${url.pathname}: check the base URL and the network.`,
      { cause: error },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new AuthError(
      operation === 'login' ? 'ERR_AUTH_LOGIN_FAILED' : 'ERR_AUTH_REFRESH_FAILED',
      refusedMessage(operation, response.status),
      {
        status: response.status,
      },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A login function for the documented endpoint (docs/wire-format.md: `POST
 * /connect-auth/v1/account/login` with `{client_id, client_secret}`), to give to
 * `createTokenSession({ login })`.
 */
export function clientCredentialsLogin(options: ClientCredentials): () => Promise<TokenPair> {
  const url = endpointUrl(options, LOGIN_PATH);
  const fetchImpl = options.fetch ?? defaultFetch();
  const { clientId, clientSecret } = options;
  return async () => {
    const body = await postJson(
      url,
      { client_id: clientId, client_secret: clientSecret },
      'login',
      fetchImpl,
      { clientId },
    );
    return parseTokenAnswer(body, 'login');
  };
}

/**
 * A refresh function for the documented endpoint (docs/wire-format.md: `POST
 * /connect-auth/v1/account/refresh-token` with the required headers `Authorization: Bearer
 * <access_token>` (or `auth: <access_token>`) and `Client-Id`, and `{access_token, refresh_token}`). It works with an expired
 * access token, which is what refresh is for. A rotated refresh token in the answer replaces the
 * old one.
 */
export function refreshTokenExchange(
  options: AuthEndpointOptions,
): (tokens: TokenPair) => Promise<TokenPair> {
  const url = endpointUrl(options, REFRESH_PATH);
  const fetchImpl = options.fetch ?? defaultFetch();
  const { clientId } = options;
  const tokenHeader = checkTokenHeader(options.tokenHeader, 'refreshTokenExchange()');
  return async (tokens) => {
    const body = await postJson(
      url,
      { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
      'refresh',
      fetchImpl,
      { bearer: tokens.access_token, clientId, tokenHeader },
    );
    return parseTokenAnswer(body, 'refresh', tokens);
  };
}
