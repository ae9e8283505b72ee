import { AuthError, type AuthOperation, refusedMessage } from './errors.js';
import { parseTokenAnswer, type TokenPair } from './tokens.js';

/** Field notes: the documented login and refresh paths. */
export const LOGIN_PATH = '/connect-auth/v1/account/login';
export const REFRESH_PATH = '/connect-auth/v1/account/refresh-token';

export interface AuthEndpointOptions {
  /** The service's base address, e.g. `https://api.example.com`. */
  baseUrl: string | URL;
  /** Default {@link LOGIN_PATH} or {@link REFRESH_PATH}. */
  path?: string;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export interface ClientCredentials extends AuthEndpointOptions {
  clientId: string;
  clientSecret: string;
}

function endpointUrl(options: AuthEndpointOptions, defaultPath: string): URL {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(
      `The auth baseUrl ${JSON.stringify(String(options.baseUrl))} is not an absolute URL: give the service's address, e.g. https://api.example.com.`,
    );
  }
  const path = options.path ?? defaultPath;
  // Keep a base path such as https://host/api when joining.
  return new URL(`${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`, base);
}

async function postJson(url: URL, body: object, operation: AuthOperation, fetchImpl: typeof fetch) {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
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
 * A login function for the documented endpoint (field notes: `POST /connect-auth/v1/account/login`
 * with `{client_id, client_secret}`), to give to `createTokenSession({ login })`.
 */
export function clientCredentialsLogin(options: ClientCredentials): () => Promise<TokenPair> {
  const url = endpointUrl(options, LOGIN_PATH);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const { clientId, clientSecret } = options;
  return async () => {
    const body = await postJson(
      url,
      { client_id: clientId, client_secret: clientSecret },
      'login',
      fetchImpl,
    );
    return parseTokenAnswer(body, 'login');
  };
}

/**
 * A refresh function for the documented endpoint (field notes:
 * `POST /connect-auth/v1/account/refresh-token` with `{access_token, refresh_token}`).
 */
export function refreshTokenExchange(
  options: AuthEndpointOptions,
): (tokens: TokenPair) => Promise<TokenPair> {
  const url = endpointUrl(options, REFRESH_PATH);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return async (tokens) => {
    const body = await postJson(
      url,
      { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
      'refresh',
      fetchImpl,
    );
    return parseTokenAnswer(body, 'refresh', tokens);
  };
}
