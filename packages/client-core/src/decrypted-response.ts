/**
 * Decrypted responses are genuine `Response` objects built from the plaintext: every native
 * method, `clone()`, `body` and `new Response(res.body)` behave. What sets them apart is recorded
 * here (for {@link wasDecrypted}) and in the `X-JWE-Decrypted` header.
 */

/** Added to every decrypted response; its value is the response envelope's kid, or `true` without one. */
export const DECRYPTED_HEADER = 'x-jwe-decrypted';

/** What the core knows about a response it decrypted. */
export interface DecryptionInfo {
  /** The response envelope's key id, if it named one. */
  kid: string | undefined;
  /** Which protected header the tag covered (see the codec's `HeaderSource`). */
  headerSource: string;
}

const decrypted = new WeakMap<Response, DecryptionInfo>();

/** Headers that describe the envelope rather than the plaintext (names in lower case). */
export const ENVELOPE_ONLY_HEADERS: readonly string[] = [
  'content-length',
  'content-encoding',
  'x-encryption',
];

/** True when `response` is one the core decrypted (or a clone of one). A server cannot fake this. */
export function wasDecrypted(response: Response): boolean {
  return decrypted.has(response);
}

/** How `response` was decrypted, or `undefined` when it was not. */
export function decryptionInfo(response: Response): DecryptionInfo | undefined {
  return decrypted.get(response);
}

/** A mutable set of headers: fetch `Headers`, or an adapter's own (names in lower case). */
export interface HeaderEditor {
  get(name: string): string | null | undefined;
  set(name: string, value: string): unknown;
  delete(name: string): unknown;
}

/**
 * Turns a copy of an envelope's headers into the decrypted response's, in place: drops what
 * described the envelope, names JSON as the content type where the envelope's said JOSE or
 * nothing, and adds {@link DECRYPTED_HEADER}.
 */
export function markDecryptedHeaders<T extends HeaderEditor>(headers: T, info: DecryptionInfo): T {
  for (const name of ENVELOPE_ONLY_HEADERS) headers.delete(name);
  const contentType = headers.get('content-type');
  if (typeof contentType !== 'string' || contentType.toLowerCase().includes('jose')) {
    headers.set('content-type', 'application/json');
  }
  headers.set(DECRYPTED_HEADER, info.kid ?? 'true');
  return headers;
}

function nativeClone(this: Response): Response {
  // The clone of the class that built this response, whatever the global `Response` is now.
  const copy = (Object.getPrototypeOf(this) as Response).clone.call(this);
  return register(copy, decrypted.get(this)!, this.url, this.redirected);
}

function register(response: Response, info: DecryptionInfo, url: string, redirected: boolean): Response {
  // Own properties over the prototype's getters: the object stays a plain native Response.
  Object.defineProperty(response, 'url', { value: url, enumerable: true });
  if (redirected) Object.defineProperty(response, 'redirected', { value: true, enumerable: true });
  Object.defineProperty(response, 'clone', { value: nativeClone, writable: true, configurable: true });
  decrypted.set(response, info);
  return response;
}

/**
 * A Response of the process's `Response` class carrying `body`, with `source`'s status and
 * `headers`. The init is a plain object with headers of its own: an implementation that keeps the
 * init's headers (the global `Response` of @hono/node-server 1.x does) would otherwise hand back
 * a fetch response's immutable ones.
 */
export function responseWith(body: Uint8Array, source: Response, headers: Headers): Response {
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: source.status,
    statusText: source.statusText,
    headers,
  });
}

/**
 * A genuine Response carrying `plaintext`, with the envelope response's status and headers; `url`
 * is the envelope's, or the request's where the fetch that answered left it empty.
 */
export function decryptedResponse(
  plaintext: Uint8Array,
  envelope: Response,
  url: string,
  info: DecryptionInfo,
): Response {
  const headers = markDecryptedHeaders(new Headers(envelope.headers), info);
  return register(responseWith(plaintext, envelope, headers), info, url, envelope.redirected);
}
