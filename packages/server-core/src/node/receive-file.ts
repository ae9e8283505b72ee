import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ALG, type ByteSource, decryptFileStream, ENC, isJweError } from '@jwe-transport/codec';
import { type JweTraceContext, kidNotingResolver, traceOpen } from '@jwe-transport/codec/diagnostics';
import {
  afterAuthentication,
  isJweHttpError,
  requestAborted,
  toHttpError,
  unknownKid,
  uploadInvalid,
  withKid,
} from '../errors.js';
import type { JweServer } from '../jwe-server.js';
import { recordingResolver } from '../keys.js';
import { parseLimit, type SizeLimit } from '../limit.js';
import type { Opened } from '../opened.js';
import { type HeaderValue, refuseEarly, streamChunks } from '../read-body.js';
import { EnvelopeGuard } from './envelope-guard.js';
import { chooseMimeType, readHead } from './file-head.js';
import { privateFolder } from './private-folder.js';

/** The default largest upload, for every adapter and every kind of upload. */
export const DEFAULT_UPLOAD_LIMIT = '10mb';

export interface ReceiveFileOptions {
  /** Folder the upload goes into: a private 0700 folder is made inside it, and the 0600 file (and any spill file) goes there. */
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

/** Invalid payloads are the same `upload.invalid` on disk as in memory. */
export function filePayloadShape(field: string): string {
  return `The decrypted body must be {"${field}": "<standard base64 of the file>"}.`;
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
      } catch (error) {
        throw isJweHttpError(error) ? error : requestAborted();
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
 * Streams an encrypted `{"file": "<base64>"}` envelope from `source` to a new 0600 file in a
 * private folder inside `dest`, in constant memory. Resolves only after the tag has verified; on
 * any failure (tampering, a client that goes away, a limit) no file is left behind and the
 * promise rejects with a `JweHttpError`.
 */
export function receiveEncryptedFile(
  server: JweServer,
  source: ByteSource,
  options: ReceiveFileOptions,
  headers: UploadHeaders = {},
  fieldName = 'file',
): Promise<ReceivedUpload> {
  // `jwe-transport:open` (side server) for streamed uploads too; the envelope's size is not counted.
  return traceOpen(
    'server',
    undefined,
    (trace) => {
      if (trace) trace.streamed = true;
      return receive(server, source, options, headers, fieldName, trace);
    },
    (upload) => ({ kid: upload.info.kid, plaintextBytes: upload.file.size }),
  );
}

async function receive(
  server: JweServer,
  source: ByteSource,
  options: ReceiveFileOptions,
  headers: UploadHeaders,
  fieldName: string,
  trace: JweTraceContext | undefined,
): Promise<ReceivedUpload> {
  const limit = parseLimit(options.limit ?? DEFAULT_UPLOAD_LIMIT, 'upload "limit"');
  const maxSpill = options.maxSpill === undefined ? limit : parseLimit(options.maxSpill, 'upload "maxSpill"');
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
    const destination = await privateFolder(options.dest);
    const filename = randomUUID();
    const path = join(destination, filename);
    const readable =
      typeof (source as ReadableStream).getReader === 'function'
        ? streamChunks(source as ReadableStream<Uint8Array>)
        : source;
    const result = await decryptFileStream(
      guarded(readable, guard),
      kidNotingResolver(trace, recorder.resolve),
      {
        to: path,
        missingProtected: server.options.missingProtected,
        spillDir: destination,
      },
    );
    const opened = server.opened(result, recorder);
    return {
      ...opened,
      file: {
        fieldname: fieldName,
        mimetype: chooseMimeType(undefined, await readHead(path)),
        size: result.bytes,
        destination,
        filename,
        path,
      },
    };
  } catch (error) {
    // The codec refuses a payload that is not {"file": ...} only once the tag verified.
    const payload =
      isJweError(error) &&
      error.code === 'ERR_JWE_INVALID' &&
      /decrypted payload|The "file" member/.test(error.message);
    const failure = withKid(
      payload ? uploadInvalid(filePayloadShape(fieldName)) : toHttpError(error),
      recorder.asked,
    );
    // Authenticated: the refusal is sealed under the key that opened it, like any other answer.
    const used = recorder.used;
    if (payload && used !== undefined) {
      afterAuthentication(
        failure,
        server.opened({ kid: used.kid, header: used.header, headerSource: undefined }, recorder),
      );
    }
    throw failure;
  }
}
