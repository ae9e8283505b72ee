import { TranscriptionError } from '../transcription/errors.js';
import { type FetchLike, send, serviceUrl } from './fetch-like.js';

/** Where and how the workflow's API calls go: base URL and a fetch that adds the bearer token. */
export interface ServiceContext {
  baseUrl: URL;
  fetch: FetchLike;
}

export interface CallOptions {
  method: 'GET' | 'POST';
  json?: unknown;
  query?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

/** One API call; a network failure becomes `ERR_SERVICE_UNREACHABLE` (an abort stays an abort). */
export async function callService(context: ServiceContext, path: string, options: CallOptions) {
  const url = serviceUrl(context.baseUrl, path);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const init: RequestInit = { method: options.method, headers: { accept: 'application/json' } };
  if (options.json !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(options.json);
  }
  if (options.signal) init.signal = options.signal;
  try {
    return await send(context.fetch, url, init);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    // fetch reports network failures as TypeError; anything else (auth, JWE) is already meaningful.
    if (!(error instanceof TypeError)) throw error;
    throw new TranscriptionError(
      'ERR_SERVICE_UNREACHABLE',
      `Could not reach ${url.origin}${url.pathname}: check the base URL and the network.`,
      { cause: error },
    );
  }
}
