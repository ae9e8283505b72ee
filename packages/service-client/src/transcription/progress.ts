/** A step of the workflow that may be tried again (see `RetryOptions`). */
export type RetriedStep = 'grant' | 'file' | 'start' | 'status';

/**
 * What the workflow is doing, as it happens (the `onProgress` option). Events of one call arrive
 * in order; the listener runs synchronously inside the upload, so keep it quick. If it throws,
 * the call stops and rejects with that error.
 */
export type TranscribeProgress =
  /** An upload grant is asked for: the first one, or a fresh one after the storage refused a policy (403). */
  | { step: 'grant'; transactionId: string; attempt: number; reason: 'first' | 'policy-refused' }
  /**
   * Bytes of one file handed to fetch so far, of its total, in this attempt (fetch and the
   * network buffer a little ahead of what the storage has received). For a sized stream (a file
   * from disk) this is reported as the body is read; a Blob or bytes in memory are reported at 0
   * and when the storage accepted them. `done` is set once the storage answered 2xx;
   * `skipped` when an earlier call of this client had already stored the file.
   */
  | {
      step: 'file';
      transactionId: string;
      file: string;
      bytesSent: number;
      totalBytes: number;
      attempt: number;
      done: boolean;
      skipped?: true;
    }
  /** A transient failure of a step; the next attempt follows after `delayMs`. */
  | {
      step: 'retry';
      transactionId: string;
      of: RetriedStep;
      file?: string;
      attempt: number;
      delayMs: number;
      reason: string;
    }
  /** The start call was answered: 201, or 409 for a transaction already started (counted as started). */
  | { step: 'start'; transactionId: string; attempt: number; alreadyStarted: boolean }
  /** One answer of the status call (`waitForResult`, or the check a retried `transcribe()` makes). */
  | { step: 'status'; transactionId: string; httpStatus: number; poll: number };

export type ProgressListener = (event: TranscribeProgress) => void;

/**
 * Calls the caller's listener; an exception from it aborts `controller`, so the whole call stops
 * and rejects with that exception instead of being mistaken for a network failure mid-upload.
 */
export function progressEmitter(
  listener: ProgressListener | undefined,
  controller: AbortController,
): ProgressListener {
  if (!listener) return () => {};
  return (event) => {
    if (controller.signal.aborted) return;
    try {
      listener(event);
    } catch (error) {
      controller.abort(error);
    }
  };
}

/**
 * A controller that aborts when `signal` does (AbortSignal.any is not in every supported runtime).
 * `release()` removes the listener from the caller's signal, which may live much longer.
 */
export function linkedController(signal: AbortSignal | undefined): {
  controller: AbortController;
  release: () => void;
} {
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  return { controller, release: () => signal?.removeEventListener('abort', forward) };
}
