import { isAuthError } from './errors.js';
import type { TokenSession } from './session.js';

/** What `ky.retry()` returns (ky's `RetryMarker`), seen structurally so that ky 1.x and 2.x both fit. */
export interface KyRetryMarker {
  options: { code?: string; delay?: number } | undefined;
}

/** The `ky.retry` function of ky >= 1.12 and 2.x, which forces a retry from `afterResponse`. */
export interface KyRetrySource {
  retry?: (options?: { code?: string; delay?: number }) => object;
}

export interface KyAuthOptions {
  session: TokenSession;
  /**
   * The ky you use (the default export or any instance), for `ky.retry`: after a 401 the session
   * renews the token and the request is retried once. Without it, a 401 still renews the token for
   * the next request, but the failed one is not retried.
   */
  ky?: KyRetrySource;
}

/** A hook that fits ky 1.x's positional arguments and ky 2.x's single state object. */
export type KyAuthHook<Result> = (...args: unknown[]) => Promise<Result>;

export interface KyAuthHooks {
  hooks: {
    beforeRequest: KyAuthHook<undefined>[];
    afterResponse: KyAuthHook<KyRetryMarker | undefined>[];
    beforeRetry: KyAuthHook<undefined>[];
  };
}

interface HookView {
  request: Request;
  options: { context?: unknown; retry?: { limit?: number } };
  response: Response | undefined;
  retryCount: number;
}

function isRequest(value: unknown): value is Request {
  return value instanceof Request || Object.prototype.toString.call(value) === '[object Request]';
}

/** ky 1.x: `(request, options, [response,] state)`; ky 2.x: `({ request, options, response, retryCount })`. */
function view(args: unknown[]): HookView {
  const [first, second, third, fourth] = args;
  if (isRequest(first)) {
    const response = third instanceof Response ? third : undefined;
    const state = (response ? fourth : third) as { retryCount?: number } | undefined;
    return {
      request: first,
      options: (second ?? {}) as HookView['options'],
      response,
      retryCount: state?.retryCount ?? 0,
    };
  }
  const state = first as Partial<HookView> | undefined;
  if (!state || !isRequest(state.request)) {
    throw new TypeError(
      'kyAuth(): these hooks are for ky 1.x or 2.x; they were called with unexpected arguments.',
    );
  }
  return {
    request: state.request,
    options: state.options ?? {},
    response: state.response,
    retryCount: state.retryCount ?? 0,
  };
}

function optedOut(context: unknown): boolean {
  return (context as { auth?: unknown } | null | undefined)?.auth === false;
}

const BEARER = /^Bearer (.+)$/;

/**
 * ky options that send `Authorization: Bearer <access token>` from a {@link TokenSession}, renew it
 * before it expires, and after a 401 renew it (one renewal for all waiting requests) and retry the
 * request once. `ky.create({ prefixUrl }).extend(kyAuth({ session, ky }))`; add `jwe()` after it.
 * Per call, `context: { auth: false }` sends no token.
 */
export function kyAuth(options: KyAuthOptions): KyAuthHooks {
  const { session } = options;
  const retry = options.ky?.retry;
  // ky keeps one context object per call across its retries: the mark of "already retried once".
  const retriedCalls = new WeakSet<object>();

  const setToken = async (request: Request, context: unknown) => {
    if (optedOut(context)) return;
    request.headers.set('authorization', `Bearer ${await session.accessToken()}`);
  };

  const beforeRequest: KyAuthHook<undefined> = async (...args) => {
    const { request, options: kyOptions } = view(args);
    await setToken(request, kyOptions.context);
    return undefined;
  };

  const beforeRetry: KyAuthHook<undefined> = async (...args) => {
    // ky 1.x retries errors thrown by beforeRequest; refused credentials do not get better by retrying.
    const failure = (args[0] as { error?: unknown } | undefined)?.error;
    if (isAuthError(failure) && failure.code !== 'ERR_AUTH_UNREACHABLE') throw failure;
    const { request, options: kyOptions } = view(args);
    await setToken(request, kyOptions.context);
    return undefined;
  };

  const afterResponse: KyAuthHook<KyRetryMarker | undefined> = async (...args) => {
    const { request, options: kyOptions, response, retryCount } = view(args);
    if (response?.status !== 401 || optedOut(kyOptions.context)) return undefined;
    const sent = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
    if (sent === undefined) return undefined;
    const call = (kyOptions.context ?? request) as object;
    if (retriedCalls.has(call)) return undefined;
    retriedCalls.add(call);
    await session.renewAfterRejection(sent);
    const limit = kyOptions.retry?.limit ?? 0;
    if (!retry || retryCount >= limit) return undefined;
    return retry({ code: 'TOKEN_RENEWED', delay: 0 }) as KyRetryMarker;
  };

  return {
    hooks: { beforeRequest: [beforeRequest], afterResponse: [afterResponse], beforeRetry: [beforeRetry] },
  };
}
