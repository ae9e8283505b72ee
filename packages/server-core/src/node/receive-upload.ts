import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isEncryptedHeader } from '../encryption-header.js';
import { tooLarge, uploadInvalid } from '../errors.js';
import { fileFromPayload } from '../file-payload.js';
import type { JweServer, Opened } from '../jwe-server.js';
import { parseLimit, type SizeLimit } from '../limit.js';
import { readRequestBody, refuseEarly } from '../read-body.js';
import { DEFAULT_UPLOAD_LIMIT, receiveEncryptedFile } from './receive-file.js';

export interface UploadOptions {
  /**
   * Folder for uploaded files. Encrypted uploads stream there in constant memory and appear
   * only after their tag verified. Without it, files are kept in memory (small files only).
   */
  dest?: string;
  /** Largest upload body, in bytes or as `'500mb'`. Default `'10mb'`. */
  limit?: SizeLimit;
  /** Largest ciphertext kept on disk while `kid`/`iv`/`protected` follow it. Default: `limit`. */
  maxSpill?: SizeLimit;
  /** The multipart field (and envelope member) that holds the file. Default `'file'`. */
  fieldName?: string;
}

/** The uploaded file, shaped like multer's `req.file`. */
export interface UploadedFile {
  fieldname: string;
  /** The client's file name; multipart only. */
  originalname?: string;
  /** The type the client declared (multipart), or `application/octet-stream`. */
  mimetype: string;
  size: number;
  /** The bytes, without `dest`. */
  buffer?: Uint8Array;
  /** With `dest`: the folder, the file's name in it, and the full path. */
  destination?: string;
  filename?: string;
  path?: string;
}

async function store(dest: string | undefined, bytes: Uint8Array) {
  if (dest === undefined) return { buffer: bytes };
  const destination = resolve(dest);
  const filename = randomUUID();
  const path = join(destination, filename);
  await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
  return { destination, filename, path };
}

async function receiveMultipart(
  request: Request,
  fieldName: string,
  limit: number,
  dest: string | undefined,
) {
  if (!/^\s*multipart\/form-data\s*;/i.test(request.headers.get('content-type') ?? '')) {
    throw uploadInvalid(
      `Send the file as multipart/form-data in the field "${fieldName}", or as an encrypted ` +
        `{"${fieldName}": "<base64>"} envelope with "X-Encryption: JWE".`,
    );
  }
  // The Web form parser holds the whole body, so the limit is checked on the bytes first.
  const body = await readRequestBody(request, limit);
  const form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: request.headers })
    .formData()
    .catch(() => {
      throw uploadInvalid('The multipart body could not be read.');
    });
  const part = form.get(fieldName);
  if (typeof part !== 'object' || part === null) {
    throw uploadInvalid(`The multipart body has no file in the field "${fieldName}".`);
  }
  const bytes = new Uint8Array(await part.arrayBuffer());
  if (bytes.length > limit) throw tooLarge(limit, bytes.length, 'The uploaded file');
  return {
    fieldname: fieldName,
    originalname: part.name,
    mimetype: part.type || 'application/octet-stream',
    size: bytes.length,
    ...(await store(dest, bytes)),
  };
}

/**
 * An upload from a Web `Request`: an encrypted `{"file": "<base64>"}` envelope (streamed to
 * `dest` when set, tag checked before this resolves) or a plain multipart form. Failures are
 * `JweHttpError`s; nothing is left on disk after one.
 */
export async function receiveUpload(
  server: JweServer,
  request: Request,
  options: UploadOptions = {},
): Promise<Opened & { file: UploadedFile }> {
  const fieldName = options.fieldName ?? 'file';
  const limit = parseLimit(options.limit ?? DEFAULT_UPLOAD_LIMIT, 'upload "limit"');
  const encrypted = isEncryptedHeader(request.headers.get('x-encryption'));
  if (!encrypted || request.body === null) {
    if (encrypted) throw uploadInvalid('The encrypted upload has no body.');
    const opened = await server.openPlain(true);
    return { ...opened, file: await receiveMultipart(request, fieldName, limit, options.dest) };
  }
  if (options.dest !== undefined) {
    const upload = await receiveEncryptedFile(
      server,
      request.body,
      {
        dest: options.dest,
        limit,
        ...(options.maxSpill === undefined ? {} : { maxSpill: options.maxSpill }),
      },
      {
        contentEncoding: request.headers.get('content-encoding'),
        contentLength: request.headers.get('content-length'),
      },
    );
    return { ...upload, file: { ...upload.file, fieldname: fieldName } };
  }
  refuseEarly(request.headers.get('content-encoding'), request.headers.get('content-length'), limit);
  const opened = await server.openEnvelope(await readRequestBody(request, limit));
  const bytes = fileFromPayload(opened.plaintext, fieldName, server.options.strictJson);
  return {
    info: opened.info,
    responseKey: opened.responseKey,
    file: { fieldname: fieldName, mimetype: 'application/octet-stream', size: bytes.length, buffer: bytes },
  };
}
