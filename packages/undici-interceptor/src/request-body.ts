import { Readable } from 'node:stream';
import { JweRequestError, type UploadProgressListener } from '@jwe-transport/client-core';
import type { JweClient, SealedBody } from '@jwe-transport/client-core/adapter';
import { boundaryOf, filePartStream, firstFilePart, soleFileSize } from './multipart-file.js';

type DispatchBody = unknown;

function isFormDataLike(value: unknown): value is FormData {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'FormData'
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** undici's own `FormData` class is not the global one that the core recognises; copy it over. */
function asGlobalFormData(form: FormData): FormData {
  if (form instanceof FormData) return form;
  const copy = new FormData();
  (form as FormData).forEach((value, name) => {
    copy.append(name, value);
  });
  return copy;
}

async function readAll(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks, size);
}

function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  return value === null ? undefined : Number(value);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A streamed body (fetch always streams, even a string) read whole, when its declared length is
 * at most `limit`; `undefined` for any other body, which is left unread.
 */
export async function readWhenSmall(body: DispatchBody, headers: Headers, limit: number) {
  if (!isAsyncIterable(body)) return undefined;
  const length = declaredLength(headers);
  return length !== undefined && length <= limit ? readAll(body) : undefined;
}

/** The bytes as text when they are valid UTF-8 (as JSON must be), for the synchronous JSON path. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Seals what undici is about to send: strings, bytes, Blobs and FormData through the core; a
 * streamed body (small ones were read whole by {@link readWhenSmall}) is sealed as a stream, a
 * multipart one file part at a time.
 */
export async function sealDispatchBody(
  body: DispatchBody,
  headers: Headers,
  client: JweClient,
  onProgress?: UploadProgressListener,
): Promise<SealedBody> {
  const { options } = client;
  const call = { onProgress };
  if (body === null || body === undefined) return client.seal(null, headers);
  if (typeof body === 'string') return client.seal(body, headers);
  if (body instanceof Uint8Array) return client.seal(body as Uint8Array<ArrayBuffer>, headers, call);
  if (isFormDataLike(body)) return client.seal(asGlobalFormData(body), headers, call);
  if (body instanceof Blob) return client.seal(body, headers, call);
  if (!isAsyncIterable(body)) {
    throw new JweRequestError(
      'ERR_JWE_BODY_UNSUPPORTED',
      `This request is configured for encryption, but undici was given a body it cannot seal (${typeof body}). ` +
        'Send JSON text, bytes, a Blob, a FormData or a stream.',
    );
  }
  const contentType = headers.get('content-type') ?? '';
  const boundary = /^\s*multipart\/form-data/i.test(contentType) ? boundaryOf(contentType) : undefined;
  if (boundary !== undefined) {
    const part = await firstFilePart(body, boundary);
    const fileHeaders = new Headers(headers);
    fileHeaders.set('content-type', 'application/octet-stream');
    const size = soleFileSize(declaredLength(headers), part, boundary);
    const file = filePartStream(part, options.fileField, size);
    return client.seal(file, fileHeaders, { onProgress, size });
  }
  const stream = Readable.toWeb(Readable.from(body)) as ReadableStream<Uint8Array>;
  return client.seal(stream, headers, { onProgress, size: declaredLength(headers) });
}
