import { decrypt, isJweError } from '@jwe-transport/codec';
import { DecryptedResponse } from './decrypted-response.js';
import { JweResponseError } from './errors.js';
import { isJsonMediaType, saysJwe } from './media-type.js';
import type { ResolvedOptions, ResponseMode } from './options.js';
import { isEnvelopeShaped } from './outgoing.js';
import { readBody } from './read-body.js';

/** Headers that describe the envelope rather than the decrypted body. */
const ENVELOPE_ONLY_HEADERS = ['content-length', 'content-encoding', 'x-encryption'];

function hasNoBody(response: Response, method: string): boolean {
  return (
    response.body === null ||
    method.toUpperCase() === 'HEAD' ||
    response.status === 204 ||
    response.status === 205 ||
    response.status === 304
  );
}

/**
 * An envelope's first member is one of the JWE member names, so a plain JSON response that starts
 * any other way is left alone without parsing all of it.
 */
const ENVELOPE_START =
  /^\s*\{\s*"(?:protected|iv|ciphertext|tag|kid|encrypted_key|aad|header|unprotected)"\s*:/;

function parseShape(body: Uint8Array): boolean {
  if (!ENVELOPE_START.test(new TextDecoder().decode(body.subarray(0, 64)))) return false;
  try {
    return isEnvelopeShaped(JSON.parse(new TextDecoder().decode(body)));
  } catch {
    return false;
  }
}

/** Where a request went, for messages: no query string, which may carry tokens. */
function describeTarget(method: string, url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${method.toUpperCase()} ${origin}${pathname}`;
  } catch {
    return method.toUpperCase();
  }
}

function decryptedResponse(original: Response, plaintext: Uint8Array): Response {
  // The new Response copies the headers; its own copy is mutable, so edit that one.
  const response = new DecryptedResponse(
    plaintext,
    { status: original.status, statusText: original.statusText, headers: original.headers },
    // A constructed Response has an empty url; keep the real one for callers and error messages.
    { url: original.url, redirected: original.redirected },
  );
  const { headers } = response;
  for (const name of ENVELOPE_ONLY_HEADERS) headers.delete(name);
  const contentType = headers.get('content-type');
  if (contentType === null || contentType.toLowerCase().includes('jose')) {
    headers.set('content-type', 'application/json');
  }
  return response;
}

export interface IncomingContext {
  method: string;
  url: string;
  mode: ResponseMode;
  options: ResolvedOptions;
  /** True when `response` may be consumed (ky hands hooks a clone); false to read a clone instead. */
  consumable: boolean;
}

/**
 * Decrypts an envelope response into an ordinary one with the same status and headers, or
 * returns `undefined` when the response is left as it is.
 */
export async function decryptIncoming(
  response: Response,
  context: IncomingContext,
): Promise<Response | undefined> {
  const { mode, options } = context;
  if (mode === 'never' || hasNoBody(response, context.method)) return undefined;
  const marked = saysJwe(response.headers);
  const mustDecrypt = marked || mode === 'always';
  if (!mustDecrypt && !isJsonMediaType(response.headers.get('content-type'))) return undefined;
  const body = await readBody(context.consumable ? response : response.clone());
  if (body.length === 0 || (!mustDecrypt && !parseShape(body))) return undefined;
  try {
    const plaintext = await decrypt(body, options.key, { missingProtected: options.missingProtected });
    return decryptedResponse(response, plaintext);
  } catch (error) {
    if (!isJweError(error)) throw error;
    throw new JweResponseError(
      error.code,
      response.status,
      response,
      `The ${response.status} response to ${describeTarget(context.method, context.url)} could not be ` +
        `decrypted (${error.code}): ${error.message}`,
      error,
    );
  }
}
