import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { limitedBody } from './body-stream.js';
import { uploadInvalid } from './errors.js';
import type { JweFile } from './file.js';
import { SNIFF_BYTES } from './sniff.js';
import { chooseMimeType, newUploadPath, removeQuietly } from './storage.js';

export interface MultipartOptions {
  limit: number;
  timeout: number;
  fieldName: string;
  dest: string | undefined;
}

export interface MultipartResult {
  file: JweFile;
  fields: Record<string, string>;
}

/**
 * Reads a `multipart/form-data` upload with one file in `fieldName`: into memory, or streamed into
 * a new file in `dest`. The whole body counts against `limit`, and a failed upload leaves no file.
 */
export function receiveMultipart(req: Request, options: MultipartOptions): Promise<MultipartResult> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = Object.create(null);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 100, fieldSize: 64 * 1024 } });
    } catch {
      reject(uploadInvalid('The multipart/form-data request has no usable boundary.'));
      return;
    }
    const body = limitedBody(req, options.limit, options.timeout);
    let stored: Promise<JweFile> | undefined;
    let fileStream: Readable | undefined;
    let writtenPath: string | undefined;
    let failed = false;

    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      parser.removeAllListeners('file');
      fileStream?.destroy();
      // Remove the file only once its writer has settled, or a late open could recreate it.
      const settled = stored ? stored.then(noop, noop) : Promise.resolve();
      settled.then(() => (writtenPath ? removeQuietly(writtenPath) : undefined)).then(() => reject(error));
    };

    parser.on('field', (name, value) => {
      if (name !== '__proto__') fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fieldName || stored) {
        stream.resume();
        fail(
          uploadInvalid(
            `Unexpected file field ${JSON.stringify(name.slice(0, 40))}: send one file in "${options.fieldName}".`,
          ),
        );
        return;
      }
      fileStream = stream;
      stored = storePart(stream, info, options, (path) => {
        writtenPath = path;
      });
      stored.catch(fail);
    });
    parser.on('filesLimit', () => fail(uploadInvalid(`Send exactly one file, in "${options.fieldName}".`)));
    parser.on('error', () => fail(uploadInvalid('The multipart/form-data body is malformed.')));
    parser.on('close', () => {
      if (failed) return;
      if (!stored) {
        fail(uploadInvalid(`The upload has no file: send it in the form field "${options.fieldName}".`));
        return;
      }
      stored.then((file) => {
        if (!failed) resolve({ file, fields: { ...fields } });
      }, fail);
    });
    body.on('error', fail);
    body.pipe(parser);
  });
}

const noop = () => {};

async function storePart(
  stream: Readable,
  info: busboy.FileInfo,
  options: MultipartOptions,
  onPath: (path: string) => void,
): Promise<JweFile> {
  let head = new Uint8Array(0);
  let size = 0;
  const chunks: Buffer[] = [];
  const keep = options.dest === undefined;
  stream.on('data', (chunk: Buffer) => {
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    size += chunk.length;
    if (keep) chunks.push(chunk);
  });
  const described = {
    fieldname: options.fieldName,
    ...(info.filename ? { originalname: info.filename } : {}),
    encoding: info.encoding,
  };
  if (options.dest === undefined) {
    await finished(stream);
    const buffer = Buffer.concat(chunks);
    return { ...described, mimetype: chooseMimeType(info.mimeType, head), size, buffer };
  }
  const target = newUploadPath(options.dest);
  onPath(target.path);
  await pipeline(stream, createWriteStream(target.path, { flags: 'wx' }));
  return { ...described, mimetype: chooseMimeType(info.mimeType, head), size, ...target };
}
