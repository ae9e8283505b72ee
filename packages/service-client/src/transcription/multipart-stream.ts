/**
 * A file whose bytes come as a stream of known length: what `audioFileFromPath()` gives. Sent as
 * a streamed multipart body with an exact `Content-Length` (storage refuses chunked uploads).
 */
export interface SizedSource {
  readonly size: number;
  stream(): ReadableStream<Uint8Array>;
}

export function isSizedSource(value: unknown): value is SizedSource {
  return (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Blob) &&
    typeof (value as SizedSource).stream === 'function' &&
    Number.isSafeInteger((value as SizedSource).size)
  );
}

const encoder = new TextEncoder();

/** Quoted-string parameter as browsers send it in form data: `"`, CR and LF percent-encoded. */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

export interface MultipartBody {
  body: ReadableStream<Uint8Array>;
  length: number;
  contentType: string;
  /**
   * Why the body failed on the source's side (the file changed size, or a one-shot stream was
   * asked for a second time), once it did: such a failure is final, unlike a network error.
   */
  sourceFailure(): Error | undefined;
}

export interface MultipartOptions {
  /** Called with the file bytes read into the body so far, as they are read. */
  onBytes?: (sent: number) => void;
  /**
   * Streams handed out by earlier attempts of the same upload: a source whose `stream()` gives one
   * of them again (or a stream already read) is one-shot and cannot be sent again.
   */
  seen?: WeakSet<ReadableStream<Uint8Array>>;
}

/**
 * `multipart/form-data` with `fields` in order and the file part last, as a stream: only the
 * small head and tail are built in memory; the file's bytes pass through as they are read. The
 * stream fails if the source yields more or fewer bytes than its size (the file changed).
 */
export function multipartStream(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { name: string; type: string; source: SizedSource },
  options: MultipartOptions = {},
): MultipartBody {
  const boundary = `----jwe-transport-${globalThis.crypto.randomUUID()}`;
  let head = '';
  for (const [name, value] of fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(file.name)}\r\nContent-Type: ${file.type}\r\n\r\n`;
  const headBytes = encoder.encode(head);
  const tailBytes = encoder.encode(`\r\n--${boundary}--\r\n`);
  const expected = file.source.size;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let sent = 0;
  let failure: Error | undefined;
  // Once fetch gave up on the body (a reset), a read still in flight may end early: that is the
  // cancel, not a file that shrank, and must not be mistaken for one.
  let cancelled = false;
  const fail = (message: string) => {
    if (cancelled) throw new Error('The upload was cancelled.');
    failure = new Error(message);
    throw failure;
  };
  const open = () => {
    const stream = file.source.stream();
    if (options.seen?.has(stream) || stream.locked)
      fail(
        `The source of ${JSON.stringify(file.name)} gave a stream that was already read: a one-shot stream cannot be sent again. Give a source whose stream() opens the data anew (audioFileFromPath() does), or a Blob.`,
      );
    options.seen?.add(stream);
    return stream.getReader();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(headBytes);
    },
    async pull(controller) {
      reader ??= open();
      const { done, value } = await reader.read();
      if (!done) {
        sent += value.byteLength;
        if (sent > expected) fail(`The file ${JSON.stringify(file.name)} grew while it was uploaded.`);
        controller.enqueue(value);
        options.onBytes?.(sent);
        return;
      }
      if (sent !== expected) fail(`The file ${JSON.stringify(file.name)} shrank while it was uploaded.`);
      controller.enqueue(tailBytes);
      controller.close();
    },
    async cancel(reason) {
      cancelled = true;
      await reader?.cancel(reason);
    },
  });
  return {
    body,
    length: headBytes.length + expected + tailBytes.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
    sourceFailure: () => failure,
  };
}
