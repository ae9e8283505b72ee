import type { UploadProgressListener } from '@jwe-transport/client-core';
import type { SealableBody } from '@jwe-transport/client-core/adapter';

/**
 * Marks a request whose file this plugin seals only when ky's `fetch` option is called. It never
 * reaches the wire (that fetch builds the request it sends), and a marked request the plugin did not
 * make itself is refused rather than sent without its body.
 */
export const DEFERRED_HEADER = 'x-jwe-transport-deferred';

/** What one call's body was before it was sealed: every attempt is sealed afresh from it. */
export interface Plaintext {
  body: SealableBody;
  /** The caller's content type: an attempt's own headers carry the envelope's. */
  contentType: string | null;
  /** Sealed as a stream: each attempt is sealed inside ky's fetch call, from `body`. */
  deferred?: { progress: UploadProgressListener | undefined };
}

/**
 * The request ky sends on for a streamed upload: the caller's request without its body. ky clones
 * every request it may retry, and cloning a stream would buffer all of it; a request with no body
 * clones for free, and ky's own retry, timeout and hooks apply to it as to any other.
 */
export function placeholderFor(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set(DEFERRED_HEADER, '1');
  return new Request(request.url, {
    method: request.method,
    headers,
    signal: request.signal,
    credentials: request.credentials,
    referrerPolicy: request.referrerPolicy,
  });
}

/**
 * The headers to seal an attempt under: the attempt's own (a hook may have refreshed a token since),
 * with the caller's content type back in place of the envelope's, and no private mark.
 */
export function attemptHeaders(attempt: Request, plaintext: Plaintext): Headers {
  const headers = new Headers(attempt.headers);
  headers.delete('x-encryption');
  headers.delete(DEFERRED_HEADER);
  if (plaintext.contentType === null) headers.delete('content-type');
  else headers.set('content-type', plaintext.contentType);
  return headers;
}
