import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ALG, type ByteSource, decryptFileStream, ENC } from '@jwe-transport/codec';
import { requestAborted, toHttpError } from '../errors.js';
import type { JweServer, Opened } from '../jwe-server.js';
import { recordingResolver } from '../keys.js';
import { parseLimit, type SizeLimit } from '../limit.js';
import { type HeaderValue, refuseEarly } from '../read-body.js';
import { EnvelopeGuard, unknownKid } from './envelope-guard.js';

export const DEFAULT_UPLOAD_LIMIT = '10mb';

export interface ReceiveFileOptions {
  /** Folder the file is written to (created by you; the spill file, if any, goes there too). */
  dest: string;
  /** Largest envelope, in bytes or as `'500mb'`. Default `'10mb'`. */
  limit?: SizeLimit;
  /**
   * Largest ciphertext kept in a temporary file while the envelope's `kid`, `iv` or `protected`
   * are still to come (they follow `ciphertext`). Default: the `limit`.
   */
  maxSpill?: SizeLimit;
}

/** A file written to disk after its envelope authenticated, shaped like multer's `req.file`. */
export interface ReceivedFile {
  fieldname: string;
  mimetype: string;
  size: number;
  destination: string;
  filename: string;
  path: string;
}

export interface ReceivedUpload extends Opened {
  readonly file: ReceivedFile;
}

export interface UploadHeaders {
  contentEncoding?: HeaderValue;
  contentLength?: HeaderValue;
}

async function* guarded(source: ByteSource, guard: EnvelopeGuard): AsyncGenerator<Uint8Array> {
  const iterator = (
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
      : (source as Iterable<Uint8Array>)[Symbol.iterator]()
  ) as AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await iterator.next();
      } catch {
        throw requestAborted();
      }
      if (step.done) return;
      await guard.feed(step.value);
      yield step.value;
    }
  } finally {
    // A Node request is left unread rather than destroyed, so the error can still be answered
    // (the adapter closes the connection after it); other sources are released.
    if (typeof (source as { pipe?: unknown }).pipe !== 'function') await iterator.return?.();
  }
}

/**
 * Streams an encrypted `{"file": "<base64>"}` envelope from `source` to a new file in `dest`,
 * in constant memory. Resolves only after the tag has verified; on any failure (tampering, a
 * client that goes away, a limit) no file is left behind and the promise rejects with a
 * `JweHttpError`.
 */
export async function receiveEncryptedFile(
  server: JweServer,
  source: ByteSource,
  options: ReceiveFileOptions,
  headers: UploadHeaders = {},
): Promise<ReceivedUpload> {
  const limit = parseLimit(options.limit ?? DEFAULT_UPLOAD_LIMIT, 'upload "limit"');
  const maxSpill = options.maxSpill === undefined ? limit : parseLimit(options.maxSpill, 'upload "maxSpill"');
  const destination = resolve(options.dest);
  const filename = randomUUID();
  const path = join(destination, filename);
  const resolver = server.options.resolver;
  const recorder = recordingResolver(resolver);
  const guard = new EnvelopeGuard({
    limit,
    maxSpill,
    checkKid: async (kid) => {
      if ((await resolver(kid, { alg: ALG, enc: ENC, kid })) === undefined) throw unknownKid(kid);
    },
  });
  try {
    refuseEarly(headers.contentEncoding, headers.contentLength, limit);
    const readable =
      typeof (source as ReadableStream).getReader === 'function'
        ? toIterable(source as ReadableStream<Uint8Array>)
        : source;
    const result = await decryptFileStream(guarded(readable, guard), recorder.resolve, {
      to: path,
      missingProtected: server.options.missingProtected,
      spillDir: destination,
    });
    const opened = server.opened(result, recorder);
    return {
      ...opened,
      file: {
        fieldname: 'file',
        mimetype: 'application/octet-stream',
        size: result.bytes,
        destination,
        filename,
        path,
      },
    };
  } catch (error) {
    throw toHttpError(error);
  }
}

async function* toIterable(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
