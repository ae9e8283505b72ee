import {
  encrypt,
  encryptFileStream,
  encryptFileToBytes,
  encryptFileToString,
  encryptStream,
  type KeyInput,
  streamingAvailable,
} from '@jwe-transport/codec';
import { JweRequestError } from './errors.js';
import { theOneFile } from './form.js';
import { requestKey } from './keys.js';
import { essence, isJsonMediaType, isMultipartForm } from './media-type.js';
import type { ResolvedClientOptions } from './options.js';
import { reportProgress, type UploadProgressListener } from './progress.js';
import { envelopeHeaders } from './sealed-headers.js';
import { watchWhileSent } from './sent-stream-watch.js';

/** A request body as fetch knows it, or nothing. */
export type SealableBody = BodyInit | null | undefined;

/**
 * What goes on the wire instead of the caller's body:
 * - `empty`: there was no body, nothing to seal (the headers are the caller's, unchanged);
 * - `buffered`: the envelope's JSON text, as a string for JSON and as its UTF-8 bytes for a file
 *   (a file's envelope is large: as bytes it is in memory once, and clients send bytes as they
 *   are) unless the call asked for text; safe to send again on a retry or a redirect;
 * - `streamed`: the envelope as a one-shot stream (send it with `duplex: 'half'`; never retry it).
 * `payload` says what the envelope carries: the JSON text as it is, or `{"file": "<base64>"}`.
 */
export type SealedBody =
  | { kind: 'empty'; headers: Headers }
  | { kind: 'buffered'; payload: 'json'; headers: Headers; body: string }
  | { kind: 'buffered'; payload: 'file'; headers: Headers; body: Uint8Array<ArrayBuffer> | string }
  | { kind: 'streamed'; payload: 'json' | 'file'; headers: Headers; body: ReadableStream<Uint8Array> };

/** What one call adds to sealing its body. */
export interface SealCallOptions {
  /**
   * Upload progress in plaintext bytes of the file. A file sealed with a listener is sealed as a
   * stream at any size (where the codec can stream), since only a stream shows how far the upload
   * got; JSON bodies report nothing.
   */
  onProgress?: UploadProgressListener | undefined;
  /** The plaintext's size when the body is a stream whose length is known (a Content-Length). */
  size?: number | undefined;
  /**
   * A file sealed in memory as the envelope's text rather than its bytes: for a fetch, since Node
   * 20's fetch (undici 6) detaches a byte body's memory when it sends it and then cannot repeat it
   * on a 307 or 308 redirect. Text costs the envelope once more in memory.
   */
  text?: boolean | undefined;
}

const utf8 = new TextEncoder();

/** Whether this codec build can seal a stream (the Node and Deno builds can; the WebCrypto build cannot). */
export const canStream = streamingAvailable;

function unsupported(what: string, contentType: string | null): JweRequestError {
  const type = contentType === null ? 'no content type' : essence(contentType);
  return new JweRequestError(
    'ERR_JWE_BODY_UNSUPPORTED',
    `This request is configured for encryption, but its body (${what}, ${type}) is neither JSON nor a ` +
      'file, the two things the service accepts sealed. Send JSON (with a JSON content type), a file ' +
      '(FormData, Blob or bytes), or send this call unencrypted on purpose (per-call { jwe: false }).',
  );
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function kidOption(options: ResolvedClientOptions) {
  return options.kid === undefined ? {} : { kid: options.kid };
}

function asBytes(body: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new Uint8Array(body);
}

/** Seals request bodies under one client's options; see {@link SealedBody}. */
export class BodySealer {
  readonly #options: ResolvedClientOptions;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
  }

  /**
   * Seals `body` for a request whose headers are `headers`: JSON is sealed as it is, a file
   * (FormData with one file in `fileField`, a Blob, bytes) as `{"file": "<base64>"}`. Throws
   * `JweRequestError` for anything else: a request configured for encryption never goes out plain.
   */
  async seal(body: SealableBody, headers?: HeadersInit, call: SealCallOptions = {}): Promise<SealedBody> {
    const given = new Headers(headers);
    if (body === null || body === undefined) return { kind: 'empty', headers: given };
    const contentType = given.get('content-type');
    if (typeof body === 'string') return this.#sealText(body, contentType, given);
    if (typeof FormData !== 'undefined' && body instanceof FormData) {
      return this.#sealFile(theOneFile(body, this.#options.fileField), given, call);
    }
    if (typeof Blob !== 'undefined' && body instanceof Blob) {
      return this.#sealBinary(body, contentType ?? (body.type || null), given, call);
    }
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
      return this.#sealBinary(asBytes(body), contentType, given, call);
    }
    if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) {
      return this.#sealStream(body as ReadableStream<Uint8Array>, contentType, given, call);
    }
    if (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) {
      throw unsupported('URLSearchParams', contentType);
    }
    throw unsupported(Object.prototype.toString.call(body).slice(8, -1), contentType);
  }

  /** Seals JSON text (or its UTF-8 bytes) as it is. */
  async sealJson(text: string | Uint8Array, headers?: HeadersInit): Promise<SealedBody> {
    const key = await requestKey(this.#options);
    const envelope = await encrypt(text, key, kidOption(this.#options));
    return {
      kind: 'buffered',
      payload: 'json',
      headers: envelopeHeaders(headers),
      body: JSON.stringify(envelope),
    };
  }

  async #sealText(text: string, contentType: string | null, headers: Headers): Promise<SealedBody> {
    // fetch labels every string text/plain; JSON sent that way is still JSON.
    if (isJsonMediaType(contentType) || isJsonText(text)) return this.sealJson(text, headers);
    throw unsupported(`a ${utf8.encode(text).length}-byte string that is not JSON`, contentType);
  }

  async #sealBinary(
    body: Blob | Uint8Array,
    contentType: string | null,
    headers: Headers,
    call: SealCallOptions,
  ) {
    if (isJsonMediaType(contentType)) {
      return this.sealJson(body instanceof Blob ? new Uint8Array(await body.arrayBuffer()) : body, headers);
    }
    const type = essence(contentType);
    if (isMultipartForm(contentType)) {
      // A form that a Request already encoded: parse it back to apply the upload rule.
      const form = await new Response(body as Blob | Uint8Array<ArrayBuffer>, {
        headers: { 'content-type': contentType! },
      }).formData();
      return this.#sealFile(theOneFile(form, this.#options.fileField), headers, call);
    }
    if (type.startsWith('text/')) {
      const text = new TextDecoder().decode(body instanceof Blob ? await body.arrayBuffer() : body);
      return this.#sealText(text, contentType, headers);
    }
    if (type === 'application/x-www-form-urlencoded') throw unsupported('a URL-encoded form', contentType);
    return this.#sealFile(body, headers, call);
  }

  async #sealFile(
    file: Blob | Uint8Array,
    headers: Headers,
    call: SealCallOptions = {},
  ): Promise<SealedBody> {
    const options = this.#options;
    const key = await requestKey(options);
    const sealedHeaders = envelopeHeaders(headers);
    const { onProgress } = call;
    const size = file instanceof Blob ? file.size : file.length;
    if (canStream && (onProgress !== undefined || (file instanceof Blob && size > options.streamThreshold))) {
      const blob = file instanceof Blob ? file : new Blob([file as Uint8Array<ArrayBuffer>]);
      const source = onProgress ? reportProgress(blob.stream(), size, onProgress) : blob.stream();
      const body = watchWhileSent(encryptFileStream(source, key, kidOption(options)));
      return { kind: 'streamed', payload: 'file', headers: sealedHeaders, body };
    }
    const bytes = file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : file;
    // Sealed straight to the envelope's text as bytes: the body a request sends, in memory once.
    const body = call.text
      ? await encryptFileToString(bytes, key, kidOption(options))
      : await encryptFileToBytes(bytes, key, kidOption(options));
    // Sealed in memory (the WebCrypto build): the whole file was read at once.
    onProgress?.({ loaded: size, total: size }, bytes);
    return { kind: 'buffered', payload: 'file', headers: sealedHeaders, body };
  }

  async #sealStream(
    source: ReadableStream<Uint8Array>,
    contentType: string | null,
    headers: Headers,
    call: SealCallOptions,
  ) {
    const json = isJsonMediaType(contentType);
    if (!json && (isMultipartForm(contentType) || essence(contentType).startsWith('text/'))) {
      throw unsupported('a ReadableStream', contentType);
    }
    if (!canStream) {
      const bytes = new Uint8Array(await new Response(source).arrayBuffer());
      return json ? this.sealJson(bytes, headers) : this.#sealFile(bytes, headers, call);
    }
    const key: KeyInput = await requestKey(this.#options);
    const counted = !json && call.onProgress ? reportProgress(source, call.size, call.onProgress) : source;
    const body = watchWhileSent(
      (json ? encryptStream : encryptFileStream)(counted, key, kidOption(this.#options)),
    );
    return {
      kind: 'streamed',
      payload: json ? 'json' : 'file',
      headers: envelopeHeaders(headers),
      body,
    } as const;
  }
}
