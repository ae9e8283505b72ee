/**
 * Upload progress in the caller's own terms: bytes of the plaintext file, not of the envelope.
 * `total` is the file's size where it is known (a Blob, a File, bytes), from the first event on;
 * `undefined` for a stream of unknown length.
 */
export interface UploadProgress {
  loaded: number;
  total: number | undefined;
}

/** Called as the sealer reads the file; `chunk` is the plaintext just read (do not keep it). */
export type UploadProgressListener = (progress: UploadProgress, chunk: Uint8Array) => void;

const SLICE = 2 ** 20;

/**
 * `source` passed through as the sealer pulls it, reporting the plaintext bytes read so far. The
 * sealer pulls only as fast as the envelope is sent (backpressure), so the count follows the
 * upload; the last event is the whole file. A listener that throws fails the upload.
 */
export function reportProgress(
  source: ReadableStream<Uint8Array>,
  total: number | undefined,
  listener: UploadProgressListener,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let loaded = 0;
  // An in-memory Blob or bytes arrive as one chunk: hand them on in slices (views, not copies) so
  // that progress follows the upload rather than jumping from nothing to everything.
  let rest: Uint8Array | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (rest === undefined) {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          rest = value;
        }
        const slice = rest.length > SLICE ? rest.subarray(0, SLICE) : rest;
        rest = rest.length > SLICE ? rest.subarray(SLICE) : undefined;
        loaded += slice.length;
        listener({ loaded, total }, slice);
        controller.enqueue(slice);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
