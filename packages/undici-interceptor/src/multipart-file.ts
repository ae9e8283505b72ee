import { JweRequestError } from '@jwe-transport/client-core';

/*
 * undici's fetch hands a dispatcher a FormData body already serialised as multipart bytes. To
 * stream a large file into an envelope, the one part that carries it is cut out of that byte
 * stream as it passes, holding no more than one chunk and a delimiter's length.
 */

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
/** Part headers longer than this are not what fetch writes; refuse rather than buffer them. */
const MAX_PART_HEADER = 16 * 1024;

export interface FilePart {
  /** The form field name. */
  name: string;
  /** The file name, or `undefined` for a plain text field. */
  filename: string | undefined;
  /** The part's bytes; errors with `ERR_JWE_FORM_UNSUPPORTED` if another part follows. */
  body: AsyncIterable<Uint8Array>;
  /** Stops reading the source, for a part that will not be read. */
  close(): Promise<void>;
  /** How many bytes of the source came before the part's data (its opening and headers). */
  dataOffset: number;
}

/** The `boundary` parameter of a `multipart/form-data` content type. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function parameter(disposition: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition);
  return match?.[1]?.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

function malformed(what: string): JweRequestError {
  return new JweRequestError(
    'ERR_JWE_BODY_UNSUPPORTED',
    `The multipart/form-data body could not be read (${what}), so it cannot be sealed; nothing was sent.`,
  );
}

function severalParts(): JweRequestError {
  return new JweRequestError(
    'ERR_JWE_FORM_UNSUPPORTED',
    'An encrypted upload carries exactly one form part, the file; this form has more. Nothing after ' +
      'the file was sent and the upload was aborted (the server cannot decrypt it). Send one file per ' +
      'request and put other values in the query string.',
  );
}

/** Reads a multipart body up to the end of its first part's headers. */
export async function firstFilePart(source: AsyncIterable<Uint8Array>, boundary: string): Promise<FilePart> {
  const iterator = source[Symbol.asyncIterator]();
  const opening = Buffer.from(`--${boundary}\r\n`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buffer: Buffer = Buffer.alloc(0);
  let exhausted = false;
  // Not awaited: undici's fetch body does not settle a return() while its own stream is mid-read.
  const stop = () => {
    if (!exhausted) void iterator.return?.()?.catch(() => {});
  };
  const more = async (): Promise<boolean> => {
    const { done, value } = await iterator.next();
    if (done) {
      exhausted = true;
      return false;
    }
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    return true;
  };

  let headerEnd = -1;
  try {
    for (;;) {
      headerEnd = buffer.indexOf(HEADER_END);
      if (headerEnd !== -1) break;
      if (buffer.length > MAX_PART_HEADER + opening.length) throw malformed('part headers too long');
      if (!(await more())) throw malformed('it ends before the first part');
    }
    if (!buffer.subarray(0, opening.length).equals(opening)) throw malformed('no opening boundary');
  } catch (error) {
    stop();
    throw error;
  }
  const headers = buffer.subarray(opening.length, headerEnd).toString('utf8').split('\r\n');
  const disposition = headers.find((line) => /^content-disposition:/i.test(line)) ?? '';
  const name = parameter(disposition, 'name') ?? '';
  const dataOffset = headerEnd + HEADER_END.length;
  buffer = buffer.subarray(dataOffset);

  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const at = buffer.indexOf(delimiter);
        if (at !== -1) {
          if (at > 0) yield buffer.subarray(0, at);
          buffer = buffer.subarray(at + delimiter.length);
          while (buffer.length < 2) if (!(await more())) throw malformed('it ends inside a delimiter');
          if (buffer.subarray(0, 2).equals(CRLF)) throw severalParts();
          if (buffer.subarray(0, 2).toString('latin1') !== '--') throw malformed('a bad delimiter');
          // Read the source to its end (the epilogue, normally empty) so that it finishes as usual.
          while (await more()) buffer = Buffer.alloc(0);
          return;
        }
        // Everything but a possible partial delimiter at the end can go.
        const keep = Math.min(buffer.length, delimiter.length - 1);
        if (buffer.length > keep) {
          const out = buffer.subarray(0, buffer.length - keep);
          buffer = buffer.subarray(buffer.length - keep);
          yield out;
        }
        if (!(await more())) throw malformed('it ends before the closing boundary');
      }
    } finally {
      stop();
    }
  }

  return {
    name,
    filename: parameter(disposition, 'filename'),
    body: body(),
    close: async () => stop(),
    dataOffset,
  };
}

/**
 * The size of the one file in a multipart body of `length` bytes (fetch sends a FormData with a
 * Content-Length): what is left after the part's opening and headers and the closing
 * `\r\n--boundary--\r\n` that undici writes. A form with more parts is refused as it streams.
 */
export function soleFileSize(
  length: number | undefined,
  part: FilePart,
  boundary: string,
): number | undefined {
  if (length === undefined || !Number.isSafeInteger(length)) return undefined;
  const size = length - part.dataOffset - Buffer.byteLength(`\r\n--${boundary}--\r\n`);
  return size >= 0 ? size : undefined;
}

/** The file's bytes, checked to come to `size` at their end, so that progress never overshoots. */
export async function* ofSize(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.length;
    if (seen > size) throw malformed('the file is longer than its Content-Length says');
    yield chunk;
  }
  if (seen !== size) throw malformed('the file is shorter than its Content-Length says');
}

/**
 * The part's bytes as a stream, after the service's upload rule: the first part must be a file in
 * `fileField` (what comes after it is checked as it streams; see {@link FilePart.body}).
 */
export function filePartStream(part: FilePart, fileField: string, size?: number): ReadableStream<Uint8Array> {
  const refuse = (error: JweRequestError) => {
    void part.close();
    throw error;
  };
  if (part.filename === undefined) {
    refuse(
      new JweRequestError(
        'ERR_JWE_FORM_UNSUPPORTED',
        `This form starts with the text field ${JSON.stringify(part.name)}; an encrypted upload carries exactly ` +
          'one file and nothing else. Send the values as JSON or in the query string.',
      ),
    );
  }
  if (part.name !== fileField) {
    refuse(
      new JweRequestError(
        'ERR_JWE_FILE_FIELD',
        `This form carries its file in field ${JSON.stringify(part.name)}, but encrypted uploads take it from ` +
          `${JSON.stringify(fileField)}. Rename the field or set the "fileField" option.`,
      ),
    );
  }
  const bytes = size === undefined ? part.body : ofSize(part.body, size);
  const iterator = bytes[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
