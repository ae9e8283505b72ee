import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  fileFromPayload,
  type JweServer,
  parseLimit,
  readAll,
  tooLarge,
  uploadInvalid,
} from '@jwe-transport/server-core';
import { DEFAULT_UPLOAD_LIMIT, receiveEncryptedFile } from '@jwe-transport/server-core/node';
import type { FastifyRequest } from 'fastify';
import { awaitsDecryption, markUploadDone, setOpened } from './state.js';
import type { JweFile, JweUploadConfig } from './types.js';

type Payload = FastifyRequest['raw'];

export function uploadLimit(config: JweUploadConfig): number {
  return parseLimit(config.limit ?? DEFAULT_UPLOAD_LIMIT, 'jwe upload "limit"');
}

/**
 * The `preParsing` hook of upload routes with `dest`: an encrypted `{"file": "<base64>"}` body
 * streams to disk in constant memory, and the file appears only after the tag verified. The
 * parser then sees an empty body. Other requests pass through untouched.
 */
export function streamEncryptedUploads(server: JweServer, config: JweUploadConfig & { dest: string }) {
  const fieldName = config.fieldName ?? 'file';
  const limit = uploadLimit(config);
  return async (request: FastifyRequest, _reply: unknown, payload: Payload): Promise<Payload> => {
    if (!awaitsDecryption(request)) return payload;
    const upload = await receiveEncryptedFile(
      server,
      payload,
      { dest: config.dest, limit, ...(config.maxSpill === undefined ? {} : { maxSpill: config.maxSpill }) },
      {
        contentEncoding: request.headers['content-encoding'],
        contentLength: request.headers['content-length'],
      },
    );
    setOpened(request, upload);
    markUploadDone(request);
    request.jweFile = { ...upload.file, fieldname: fieldName };
    // Fastify compares what its parser reads with Content-Length: the envelope was read in full.
    const empty = Readable.from([]) as Payload;
    (empty as { receivedEncodedLength?: number }).receivedEncodedLength = Number(
      request.headers['content-length'],
    );
    return empty;
  };
}

/** An encrypted `{"file": "<base64>"}` body on an upload route without `dest`, already read by Fastify. */
export async function receiveEncryptedUploadInMemory(
  server: JweServer,
  request: FastifyRequest,
  body: Buffer,
  config: JweUploadConfig,
): Promise<void> {
  const fieldName = config.fieldName ?? 'file';
  const limit = uploadLimit(config);
  if (body.length > limit) throw tooLarge(limit, body.length);
  const envelope = await server.openEnvelope(body);
  setOpened(request, envelope);
  const bytes = fileFromPayload(envelope.plaintext, fieldName, server.options.strictJson);
  request.jweFile = {
    fieldname: fieldName,
    mimetype: 'application/octet-stream',
    size: bytes.length,
    buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  };
}

interface MultipartFile {
  fieldname: string;
  filename: string;
  encoding: string;
  mimetype: string;
  file: NodeJS.ReadableStream & { truncated: boolean };
}

type MultipartRequest = FastifyRequest & {
  isMultipart?: () => boolean;
  file?: (options?: { limits?: { fileSize?: number; files?: number } }) => Promise<MultipartFile | undefined>;
};

/** A plain multipart upload, read through `@fastify/multipart` (which the app registers). */
export async function receiveMultipartUpload(
  request: FastifyRequest,
  config: JweUploadConfig,
): Promise<void> {
  const multipart = request as MultipartRequest;
  const fieldName = config.fieldName ?? 'file';
  const limit = uploadLimit(config);
  if (typeof multipart.isMultipart !== 'function' || typeof multipart.file !== 'function') {
    throw new Error('jwe upload route: register @fastify/multipart to accept multipart uploads.');
  }
  if (!multipart.isMultipart()) {
    throw uploadInvalid(
      `Send the file as multipart/form-data in the field "${fieldName}", or as an encrypted ` +
        `{"${fieldName}": "<base64>"} envelope with "X-Encryption: JWE".`,
    );
  }
  const part = await multipart.file({ limits: { fileSize: limit, files: 1 } });
  if (!part || part.fieldname !== fieldName) {
    throw uploadInvalid(`The multipart body has no file in the field "${fieldName}".`);
  }
  const described = {
    fieldname: fieldName,
    originalname: part.filename,
    encoding: part.encoding,
    mimetype: part.mimetype,
  };
  if (config.dest === undefined) {
    const buffer = Buffer.from(await readAll(part.file as AsyncIterable<Uint8Array>, limit));
    if (part.file.truncated) throw tooLarge(limit, undefined, 'The uploaded file');
    request.jweFile = { ...described, size: buffer.length, buffer };
    return;
  }
  const destination = resolve(config.dest);
  const filename = randomUUID();
  const path = join(destination, filename);
  const partial = join(destination, `.${filename}.partial`);
  try {
    await pipeline(part.file, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    if (part.file.truncated) throw tooLarge(limit, undefined, 'The uploaded file');
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const file: JweFile = { ...described, size: (await stat(path)).size, destination, filename, path };
  request.jweFile = file;
}
