/**
 * Any function with the shape of `fetch`: the global fetch, undici's, one wrapped by
 * `createJweFetch()` of `@jwe-transport/ky-plugin`, or a ky instance (without `prefixUrl`).
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => PromiseLike<Response>;

/**
 * Calls `fetchImpl` so that non-2xx answers come back as responses, also from a ky instance
 * (`throwHttpErrors: false` is ky's option; fetch ignores the unknown member).
 */
export function send(fetchImpl: FetchLike, url: URL, init: RequestInit): Promise<Response> {
  return Promise.resolve(fetchImpl(url, { ...init, throwHttpErrors: false } as RequestInit));
}

/** The global fetch, or a clear error in a runtime without one. */
export function defaultFetch(): FetchLike {
  if (typeof globalThis.fetch !== 'function') {
    throw new TypeError("This runtime has no global fetch: pass the `fetch` option (e.g. undici's fetch).");
  }
  return globalThis.fetch.bind(globalThis);
}

/** Joins `path` under `base`, keeping a base path such as https://host/api. */
export function serviceUrl(base: URL, path: string): URL {
  return new URL(`${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`, base);
}

/** Parses the user's base URL once, with a message that says what to give. */
export function parseBaseUrl(baseUrl: string | URL, what: string): URL {
  try {
    return new URL(baseUrl);
  } catch {
    throw new TypeError(
      `${what}: baseUrl ${JSON.stringify(String(baseUrl))} is not an absolute URL; give the service's address, e.g. https://api.example.com.`,
    );
  }
}
