import { decrypt, encrypt, encryptFile, isJweError, type KeyInput } from '@jwe-transport/codec';
import { requestKey } from './encryption-key.js';
import { JweRequestError } from './errors.js';
import { isJsonMediaType, isMultipartForm, saysJwe } from './media-type.js';
import type { ResolvedOptions } from './options.js';
import { encryptFileAsStream } from './streaming.js';

/** A request body as the ky hooks and the fetch wrapper both see it. */
export interface OutgoingRequest {
  method: string;
  headers: Headers;
  /**
   * The caller's own body object when it is known and still what the request carries (ky's
   * `options.body`, fetch's `init.body`): a FormData, or the JSON text itself.
   */
  original: unknown;
  /** Reads the body bytes; the request body is consumed, so a replacement body must be sent. */
  bytes(): Promise<Uint8Array>;
  /** Reads the body as a form without consuming it. */
  formData(): Promise<FormData>;
}

export type OutgoingBody =
  | { kind: 'unchanged' }
  | { kind: 'buffered'; headers: Headers; body: BodyInit }
  | { kind: 'streamed'; headers: Headers; body: ReadableStream<Uint8Array> };

const UNCHANGED: OutgoingBody = { kind: 'unchanged' };

/** Makes headers describe an envelope body. */
export function markEnvelope(headers: Headers): Headers {
  headers.set('x-encryption', 'JWE');
  headers.set('content-type', 'application/json');
  // The envelope is longer than the plaintext; a copied length would truncate or stall the upload.
  headers.delete('content-length');
  return headers;
}

function envelopeHeaders(headers: Headers): Headers {
  return markEnvelope(new Headers(headers));
}

function encryptOptions(options: ResolvedOptions) {
  return options.kid === undefined ? {} : { kid: options.kid };
}

/**
 * A body that already carries `X-Encryption: JWE`: ky 1.x runs `beforeRequest` again on every retry
 * with the request this plugin already encrypted. If it is an envelope under our key, its plaintext
 * is sealed again with a fresh IV (never wrapped twice); a caller's envelope under another key goes
 * out untouched; anything else is a plaintext the caller wants encrypted.
 */
async function sealAgain(bytes: Uint8Array, key: KeyInput, options: ResolvedOptions) {
  try {
    const plaintext = await decrypt(bytes, options.key, { missingProtected: options.missingProtected });
    return JSON.stringify(await encrypt(plaintext, key, encryptOptions(options)));
  } catch (error) {
    if (!isJweError(error)) throw error;
    if (error.code === 'ERR_JWE_INVALID' && !looksLikeEnvelopeText(bytes)) {
      return JSON.stringify(await encrypt(bytes, key, encryptOptions(options)));
    }
    return bytes as Uint8Array<ArrayBuffer>;
  }
}

function looksLikeEnvelopeText(bytes: Uint8Array): boolean {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return isEnvelopeShaped(value);
  } catch {
    return false;
  }
}

/** The shape test of `responses: 'auto'`: an object with string `iv`, `ciphertext` and `tag`. */
export function isEnvelopeShaped(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.iv === 'string' && typeof record.ciphertext === 'string' && typeof record.tag === 'string'
  );
}

async function fileEnvelope(form: FormData, request: OutgoingRequest, options: ResolvedOptions) {
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => {
    entries.push([name, value]);
  });
  if (!form.has('file')) return UNCHANGED;
  if (entries.length !== 1) {
    throw new JweRequestError(
      'ERR_JWE_FORM_UNSUPPORTED',
      'An encrypted upload carries exactly one form field, "file" (its plaintext is {"file": "<base64>"}); ' +
        `this form has ${entries.length} fields. Send the other values in the query string, or opt this ` +
        'request out with context: { jwe: false }.',
    );
  }
  const value = entries[0]![1];
  const key = await requestKey(options);
  const headers = envelopeHeaders(request.headers);
  if (typeof value !== 'string' && value.size > options.streamThreshold) {
    return { kind: 'streamed', headers, body: await encryptFileAsStream(value, key, options.kid) } as const;
  }
  const bytes =
    typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(await value.arrayBuffer());
  const envelope = await encryptFile(bytes, key, encryptOptions(options));
  return { kind: 'buffered', headers, body: JSON.stringify(envelope) } as const;
}

/** Turns a request body into what goes on the wire: an envelope, a streamed envelope, or nothing new. */
export async function encryptOutgoing(
  request: OutgoingRequest,
  options: ResolvedOptions,
): Promise<OutgoingBody> {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return UNCHANGED;
  const contentType = request.headers.get('content-type');
  if (typeof FormData !== 'undefined' && request.original instanceof FormData) {
    return fileEnvelope(request.original, request, options);
  }
  if (isMultipartForm(contentType)) return fileEnvelope(await request.formData(), request, options);
  if (!isJsonMediaType(contentType)) return UNCHANGED;
  const key = await requestKey(options);
  const headers = envelopeHeaders(request.headers);
  if (saysJwe(request.headers)) {
    return { kind: 'buffered', headers, body: await sealAgain(await request.bytes(), key, options) };
  }
  // ky's `json` option and fetch's string bodies arrive as the string itself: no stream to read.
  const plaintext = typeof request.original === 'string' ? request.original : await request.bytes();
  return {
    kind: 'buffered',
    headers,
    body: JSON.stringify(await encrypt(plaintext, key, encryptOptions(options))),
  };
}
