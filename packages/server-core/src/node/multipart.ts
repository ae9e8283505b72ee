import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { isJweHttpError, requestAborted, tooLarge, uploadInvalid } from '../errors.js';
import { SNIFF_BYTES } from '../sniff.js';
import { chooseMimeType } from './file-head.js';
import type { JweFile } from './jwe-file.js';
import { privateFolder } from './private-folder.js';

/** Why a part's streams are torn down (never shown: the refusal that caused it is). */
const abandoned = new Error('upload abandoned');

export interface MultipartOptions {
  /** Largest whole body, in bytes. */
  limit: number;
  fieldName: string;
  /** With it, the file streams to a 0600 file in a private folder inside `dest`; without, it is kept in memory. */
  dest: string | undefined;
}

export interface MultipartResult {
  file: JweFile;
  /** The form's text fields (at most 100, 64 KiB each). */
  fields: Record<string, string>;
}

/** The client's file name without any folder part (`../../../tmp/x` is `x`), as multer keeps it. */
export function baseName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const base = basename(name.replaceAll('\\', '/'));
  return base === '' || base === '.' || base === '..' ? undefined : base;
}

/**
 * Reads a `multipart/form-data` body with exactly one file, in `fieldName`, into memory or into
 * a new file on disk, in bounded memory either way. The whole body counts against `limit`.
 * Every failure (a second file, a truncated or malformed body, the limit, a client that leaves)
 * is a 4xx `JweHttpError`; the file written so far is closed and removed before it rejects. A
 * refused body is left unread rather than destroyed, so the answer can still be written; the
 * adapter closes the connection after it.
 */
export async function receiveMultipart(
  source: AsyncIterable<Uint8Array>,
  headers: Record<string, string | string[] | undefined>,
  options: MultipartOptions,
): Promise<MultipartResult> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: headers as busboy.BusboyConfig['headers'],
      limits: { files: 1, fields: 100, fieldSize: 64 * 1024 },
    });
  } catch {
    throw uploadInvalid('The multipart/form-data request has no usable boundary.');
  }
  const folder = options.dest === undefined ? undefined : await privateFolder(options.dest);
  const fields: Record<string, string> = Object.create(null);
  let failure: unknown;
  // Each wait is cut short by a failure through one slot, not by racing every read against one
  // long-lived promise (that would keep every chunk alive until the upload ends).
  let interrupt: ((error: unknown) => void) | undefined;
  const failed = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    interrupt?.(error);
  };
  const untilFailure = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure !== undefined) {
        promise.catch(() => {});
        reject(failure);
        return;
      }
      interrupt = reject;
      promise.then(
        (value) => {
          interrupt = undefined;
          resolve(value);
        },
        (error: unknown) => {
          interrupt = undefined;
          reject(error);
        },
      );
    });
  let stored: Promise<JweFile> | undefined;
  let part: Readable | undefined;
  let path: string | undefined;
  const writers: Writable[] = [];
  const finished = new Promise<void>((resolve) => parser.once('close', resolve));

  parser.on('field', (name, value) => {
    if (name !== '__proto__') fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== options.fieldName) {
      stream.resume();
      failed(
        uploadInvalid(
          `Unexpected file field ${JSON.stringify(name.slice(0, 40))}: send one file in "${options.fieldName}".`,
        ),
      );
      return;
    }
    part = stream;
    if (folder !== undefined) path = join(folder, randomUUID());
    stored = storePart(stream, info, options, path, writers);
    stored.catch(failed);
  });
  parser.on('filesLimit', () => failed(uploadInvalid(`Send exactly one file, in "${options.fieldName}".`)));
  parser.on('error', () => failed(uploadInvalid('The multipart/form-data body is malformed or truncated.')));

  const iterator = source[Symbol.asyncIterator]();
  let total = 0;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await untilFailure(iterator.next());
      } catch (error) {
        throw failure ?? (isJweHttpError(error) ? error : requestAborted());
      }
      if (step.done) break;
      total += step.value.length;
      if (total > options.limit) throw tooLarge(options.limit, total);
      if (!parser.write(step.value)) {
        await untilFailure(new Promise((resolve) => parser.once('drain', resolve)));
      }
    }
    parser.end();
    await untilFailure(finished);
    if (!stored)
      throw uploadInvalid(`The upload has no file: send it in the form field "${options.fieldName}".`);
    const file = await untilFailure(stored);
    return { file, fields: { ...fields } };
  } catch (error) {
    failed(error);
    // Close the file first (its writer settles), then remove it: no fd and no file is left.
    part?.destroy(abandoned);
    for (const writer of writers) writer.destroy(abandoned);
    await stored?.catch(() => {});
    if (path !== undefined) await rm(path, { force: true }).catch(() => {});
    throw failure;
  }
}

async function storePart(
  stream: Readable,
  info: busboy.FileInfo,
  options: MultipartOptions,
  path: string | undefined,
  writers: Writable[],
): Promise<JweFile> {
  let head = new Uint8Array(0);
  let size = 0;
  const chunks: Buffer[] = [];
  const keep = path === undefined;
  stream.on('data', (chunk: Buffer) => {
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    size += chunk.length;
    if (keep) chunks.push(chunk);
  });
  const originalname = baseName(info.filename);
  const described = {
    fieldname: options.fieldName,
    ...(originalname === undefined ? {} : { originalname }),
    encoding: info.encoding,
  };
  if (path === undefined) {
    await new Promise<void>((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('error', reject);
      stream.once('close', () => reject(uploadInvalid('The multipart file part ended early.')));
    });
    if ((stream as Readable & { truncated?: boolean }).truncated) throw tooLarge(options.limit, size);
    return {
      ...described,
      mimetype: chooseMimeType(info.mimeType, head),
      size,
      buffer: Buffer.concat(chunks),
    };
  }
  const writer = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  writers.push(writer);
  await pipeline(stream, writer);
  const destination = path.slice(0, path.lastIndexOf('/'));
  return {
    ...described,
    mimetype: chooseMimeType(info.mimeType, head),
    size,
    destination,
    filename: basename(path),
    path,
  };
}
