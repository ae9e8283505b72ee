import { isEncryptedHeader } from '../encryption-header.js';
import { afterAuthentication, uploadInvalid } from '../errors.js';
import { fileFromPayload } from '../file-payload.js';
import type { JweServer } from '../jwe-server.js';
import { parseLimit, type SizeLimit } from '../limit.js';
import type { Opened } from '../opened.js';
import { readBody, refuseEarly, streamChunks } from '../read-body.js';
import { SNIFF_BYTES } from '../sniff.js';
import { chooseMimeType } from './file-head.js';
import { fileWithinPayload } from './file-within-payload.js';
import type { JweFile } from './jwe-file.js';
import { receiveMultipart } from './multipart.js';
import { DEFAULT_UPLOAD_LIMIT, receiveEncryptedFile } from './receive-file.js';

export interface UploadOptions {
  /**
   * Folder for uploaded files: a private 0700 folder is made inside it, and each file is 0600
   * there. Encrypted uploads stream there in constant memory and appear only after their tag
   * verified; multipart ones stream there too. Without it, files are kept in memory (small files only).
   */
  dest?: string;
  /** Largest upload body, in bytes or as `'500mb'`. Default `'10mb'`. */
  limit?: SizeLimit;
  /** Largest ciphertext kept on disk while `kid`/`iv`/`protected` follow it. Default: `limit`. */
  maxSpill?: SizeLimit;
  /** The multipart field (and envelope member) that holds the file. Default `'file'`. */
  fieldName?: string;
}

/** An upload as any server hands it over: its headers (lower-case names) and its body (a Node request, a Web stream or any async iterable of bytes). */
export interface UploadInput {
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | undefined;
}

/** A Web stream read through a reader that, stopped early, leaves the rest unread (see `streamChunks`). */
const chunksOf = (body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> =>
  typeof (body as ReadableStream<Uint8Array>).getReader === 'function'
    ? streamChunks(body as ReadableStream<Uint8Array>)
    : (body as AsyncIterable<Uint8Array>);

export interface ReceivedUploadResult extends Opened {
  file: JweFile;
  /** A multipart form's text fields (none for encrypted uploads). */
  fields: Record<string, string>;
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** The settings every upload route resolves once. */
export interface ResolvedUpload {
  dest: string | undefined;
  limit: number;
  maxSpill: SizeLimit | undefined;
  fieldName: string;
}

export function resolveUpload(options: UploadOptions): ResolvedUpload {
  const fieldName = options.fieldName ?? 'file';
  if (typeof fieldName !== 'string' || fieldName === '') {
    throw new TypeError('jwe upload: "fieldName" must be a non-empty string.');
  }
  return {
    dest: options.dest,
    limit: parseLimit(options.limit ?? DEFAULT_UPLOAD_LIMIT, 'jwe upload: "limit"'),
    maxSpill: options.maxSpill,
    fieldName,
  };
}

/** The one message for a plain upload that is not multipart. */
export function notAnUpload(fieldName: string) {
  return uploadInvalid(
    `Send the file as multipart/form-data in the field "${fieldName}", or as an encrypted ` +
      `{"${fieldName}": "<base64>"} envelope with "X-Encryption: JWE".`,
  );
}

/**
 * An encrypted upload already read into memory: opened, and its file taken from the payload.
 * `envelope` is handed over (a body read for this upload alone): it is decrypted within.
 */
export async function openFileEnvelope(
  server: JweServer,
  envelope: Uint8Array,
  fieldName: string,
): Promise<Opened & { file: JweFile }> {
  const opened = await server.openEnvelope(envelope, { consumeBody: true });
  let bytes: Uint8Array;
  try {
    bytes =
      fileWithinPayload(opened.plaintext, fieldName) ??
      fileFromPayload(opened.plaintext, fieldName, server.options.strictJson);
  } catch (error) {
    // Authenticated: the refusal is sealed like any other answer.
    throw afterAuthentication(error, opened);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    info: opened.info,
    responseKey: opened.responseKey,
    file: {
      fieldname: fieldName,
      mimetype: chooseMimeType(undefined, buffer.subarray(0, SNIFF_BYTES)),
      size: buffer.length,
      buffer,
    },
  };
}

/**
 * The one upload path of every adapter: an encrypted `{"file": "<base64>"}` envelope (streamed
 * to `dest` when set, tag checked before this resolves, else read into memory) or a plain
 * multipart form (streamed to `dest`, else kept in memory), in bounded memory either way.
 * Failures are `JweHttpError`s with the same codes whatever the storage; nothing is left on disk.
 */
export async function receiveUploadFrom(
  server: JweServer,
  input: UploadInput,
  upload: ResolvedUpload,
): Promise<ReceivedUploadResult> {
  const { headers } = input;
  const body = input.body === undefined ? undefined : chunksOf(input.body);
  const encrypted = isEncryptedHeader(headers['x-encryption']);
  const contentEncoding = single(headers['content-encoding']);
  const contentLength = single(headers['content-length']);
  if (!encrypted) {
    const opened = await server.openPlain(true);
    if (!/^\s*multipart\/form-data\s*;/i.test(single(headers['content-type']) ?? '')) {
      throw notAnUpload(upload.fieldName);
    }
    refuseEarly(contentEncoding, contentLength, upload.limit);
    const received = await receiveMultipart(body ?? emptyBody(), headers, {
      limit: upload.limit,
      fieldName: upload.fieldName,
      dest: upload.dest,
    });
    return { ...opened, ...received };
  }
  if (body === undefined) throw uploadInvalid('The encrypted upload has no body.');
  if (upload.dest !== undefined) {
    const received = await receiveEncryptedFile(
      server,
      body,
      {
        dest: upload.dest,
        limit: upload.limit,
        ...(upload.maxSpill === undefined ? {} : { maxSpill: upload.maxSpill }),
      },
      { contentEncoding, contentLength },
      upload.fieldName,
    );
    return { ...received, fields: {} };
  }
  const envelope = await readBody(body, { limit: upload.limit, contentEncoding, contentLength });
  const opened = await openFileEnvelope(server, envelope, upload.fieldName);
  return { ...opened, fields: {} };
}

/** The headers of a Web `Request`, as `receiveUploadFrom` takes them. */
export function headersOf(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** `receiveUploadFrom` for a Web `Request`. */
export async function receiveUpload(
  server: JweServer,
  request: Request,
  options: UploadOptions = {},
): Promise<ReceivedUploadResult> {
  return receiveUploadFrom(
    server,
    { headers: headersOf(request), body: request.body ?? undefined },
    resolveUpload(options),
  );
}
