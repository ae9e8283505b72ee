import { defaultFetch, type FetchLike } from '../http/fetch-like.js';
import { audioContentType } from './content-type.js';
import { TranscriptionError } from './errors.js';
import type { UploadGrant } from './grant.js';
import { isSizedSource, multipartStream, type SizedSource } from './multipart-stream.js';
import type { ProgressListener } from './progress.js';
import {
  type Attempt,
  isTransientStatus,
  type RetryOptions,
  refusedAttempt,
  resolveRetry,
  withRetries,
} from './retry.js';

/** docs/wire-format.md, "Step 2: storage upload": the storage policy allows up to 5 GiB per file. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

/**
 * An audio file to upload. `data` is a Blob (a browser `File`), bytes in memory, or a sized
 * stream such as a file on disk from `audioFileFromPath()` of `@jwe-transport/service-client/node`
 * (streamed at any size up to 5 GiB, never held whole). A retried upload sends the data again: a
 * sized source's `stream()` must open it anew on each call (a file from disk does); a one-shot
 * stream cannot be retried and fails with `ERR_UPLOAD_NOT_REPEATABLE` when a retry needs it.
 */
export interface AudioFile {
  /** The file name the storage keys it by (`${filename}`); no path separators. */
  name: string;
  data: Blob | Uint8Array | SizedSource;
  /** Default: from the extension (`AUDIO_CONTENT_TYPES`). */
  type?: string;
}

export interface StorageUploadOptions {
  /**
   * The fetch for the storage leg. It goes to object storage, never JWE-encrypted, so it is not
   * the API's fetch. Default: the global fetch.
   */
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** Retries on network errors, 408, 429 and 5xx (defaults: 5 attempts, backoff from 500 ms). */
  retry?: RetryOptions;
  /** Progress of this file (`step: 'file'`) and its retries. */
  onProgress?: ProgressListener;
  /**
   * A fresh grant for the same transaction, asked for when the storage refuses the policy (403:
   * expired or refused). Without it a 403 is final (`ERR_UPLOAD_GRANT_EXPIRED`).
   */
  regrant?: () => Promise<UploadGrant>;
}

function hasControlCharacter(name: string): boolean {
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Why `data` cannot be uploaded, or undefined when it can. */
export function checkFileData(data: unknown): string | undefined {
  if (data instanceof Blob || data instanceof Uint8Array || isSizedSource(data)) return undefined;
  return 'data must be a Blob, a Uint8Array, or a sized stream such as audioFileFromPath() gives.';
}

export function checkFileName(name: unknown): string | undefined {
  if (
    typeof name !== 'string' ||
    name === '' ||
    name === '.' ||
    name === '..' ||
    /[/\\]/.test(name) ||
    hasControlCharacter(name)
  ) {
    return `file name ${JSON.stringify(name)} must be a plain file name (no path separators or control characters).`;
  }
  return undefined;
}

/**
 * Fetch (undici's too) clones a request that may be redirected, teeing its body stream: the
 * unread branch would keep every byte sent. A presigned POST is never redirected, so say so.
 */
const NO_CLONE = { window: null, redirect: 'error' } as const;

/** The request of one attempt: streamed multipart for a sized source, else fetch's own FormData. */
function storageRequest(
  grant: UploadGrant,
  file: AudioFile,
  onBytes: (sent: number) => void,
  seen: WeakSet<ReadableStream<Uint8Array>>,
): { init: RequestInit; size: number; streamed: boolean; sourceFailure: () => Error | undefined } {
  const type = file.type ?? audioContentType(file.name);
  if (isSizedSource(file.data)) {
    const multipart = multipartStream(
      grant.fields,
      { name: file.name, type, source: file.data },
      { onBytes, seen },
    );
    const init = {
      ...NO_CLONE,
      method: 'POST',
      body: multipart.body,
      duplex: 'half',
      headers: { 'content-type': multipart.contentType, 'content-length': String(multipart.length) },
    };
    return {
      init: init as RequestInit,
      size: file.data.size,
      streamed: true,
      sourceFailure: multipart.sourceFailure,
    };
  }
  const blob =
    file.data instanceof Blob
      ? file.data.type === type
        ? file.data
        : file.data.slice(0, file.data.size, type)
      : new Blob([file.data as Uint8Array<ArrayBuffer>], { type });
  const form = new FormData();
  for (const [name, value] of grant.fields) form.append(name, value);
  form.append('file', blob, file.name);
  return {
    init: { ...NO_CLONE, method: 'POST', body: form },
    size: blob.size,
    streamed: false,
    sourceFailure: () => undefined,
  };
}

function storageCode(text: string): string | undefined {
  return /<Code>([A-Za-z]{1,64})<\/Code>/.exec(text)?.[1];
}

function checkUpload(file: AudioFile): void {
  const problem = checkFileName(file?.name) ?? checkFileData(file?.data);
  if (problem) {
    throw new TranscriptionError('ERR_TRANSCRIPTION_PARAMS_INVALID', `Cannot upload: ${problem}`, {
      issues: [problem],
    });
  }
  const size = isSizedSource(file.data)
    ? file.data.size
    : file.data instanceof Blob
      ? file.data.size
      : file.data.byteLength;
  if (size > MAX_UPLOAD_BYTES) {
    throw new TranscriptionError(
      'ERR_UPLOAD_TOO_LARGE',
      `The audio file ${JSON.stringify(file.name)} has ${size} bytes; the storage takes at most ${MAX_UPLOAD_BYTES} (5 GiB) per file. Split the recording.`,
    );
  }
}

/** A refused upload as an error; `status` and the storage's `<Code>` go into the details. */
async function refusal(response: Response, name: string): Promise<TranscriptionError> {
  const text = await response.text().catch(() => '');
  const serviceCode = storageCode(text);
  const details =
    serviceCode === undefined ? { status: response.status } : { status: response.status, serviceCode };
  const quoted = JSON.stringify(name);
  if (response.status === 403) {
    return new TranscriptionError(
      'ERR_UPLOAD_GRANT_EXPIRED',
      `The storage refused ${quoted} with 403${serviceCode ? ` (${serviceCode})` : ''}: the upload grant expired (it lasts about an hour) or its policy does not allow this file. Ask for a new grant (requestUploadGrant) and upload again.`,
      details,
    );
  }
  return new TranscriptionError(
    'ERR_UPLOAD_FAILED',
    `The storage refused ${quoted} (HTTP ${response.status}${serviceCode ? `, ${serviceCode}` : ''}).${isTransientStatus(response.status) ? ' It may be a passing failure: try again later.' : " Check the file's size (at most 5 GiB) and try again with a new grant."}`,
    details,
  );
}

/** At most this many fresh grants per file: a policy refused again right after a new grant is final. */
const MAX_REGRANTS = 2;

/**
 * Step 2: a browser-style presigned `POST` of one file to `grant.url`: every granted field in
 * order, then the `file` part last. A file from disk is streamed in constant memory at any size up
 * to 5 GiB. Success is 204 (any 2xx is taken). Network errors, 408, 429 (after its `Retry-After`,
 * capped) and 5xx are retried with backoff; a 403 (policy expired or refused) asks `regrant` for a
 * fresh grant and retries with it. Each attempt sends the whole file again (a sized source is
 * re-opened). Answers the grant finally used.
 */
export async function uploadWithRetries(
  grant: UploadGrant,
  file: AudioFile,
  options: StorageUploadOptions = {},
): Promise<UploadGrant> {
  checkUpload(file);
  const fetchImpl = options.fetch ?? defaultFetch();
  const retry = resolveRetry(options.retry);
  const emit = options.onProgress ?? (() => {});
  const seen = new WeakSet<ReadableStream<Uint8Array>>();
  const transactionId = grant.transactionId;
  let current = grant;
  let regrants = 0;
  const attempt = async (number: number): Promise<Attempt<UploadGrant>> => {
    // A failed attempt's body may still be read for a moment after fetch gave up: say nothing more of it.
    let live = true;
    const progress = (bytesSent: number, totalBytes: number, done: boolean) => {
      if (live)
        emit({ step: 'file', transactionId, file: file.name, bytesSent, totalBytes, attempt: number, done });
    };
    let total = 0;
    const request = storageRequest(current, file, (sent) => progress(sent, total, false), seen);
    total = request.size;
    if (options.signal) request.init.signal = options.signal;
    if (!request.streamed) progress(0, total, false);
    let response: Response;
    try {
      response = await fetchImpl(current.url, request.init);
    } catch (error) {
      live = false;
      if (options.signal?.aborted) throw options.signal.reason;
      const sourceFailure = request.sourceFailure();
      if (sourceFailure) {
        throw new TranscriptionError(
          'ERR_UPLOAD_NOT_REPEATABLE',
          `Uploading ${JSON.stringify(file.name)} failed on the file's side: ${sourceFailure.message}`,
          { cause: sourceFailure },
        );
      }
      return {
        ok: false,
        reason: 'network error',
        error: new TranscriptionError(
          'ERR_UPLOAD_FAILED',
          `Uploading ${JSON.stringify(file.name)} to the storage failed before an answer arrived, ${number} time(s): check the network; the grant stays valid until it expires.`,
          { cause: error },
        ),
      };
    }
    if (response.ok) {
      await response.body?.cancel();
      progress(total, total, true);
      return { ok: true, value: current };
    }
    live = false;
    const error = await refusal(response, file.name);
    if (response.status === 403 && options.regrant && regrants < MAX_REGRANTS) {
      regrants++;
      current = await options.regrant();
      return {
        ok: false,
        reason: `storage refused the policy (403${error.serviceCode ? ` ${error.serviceCode}` : ''})`,
        error,
        retryAfterMs: 0,
        renewed: true,
      };
    }
    return refusedAttempt(response, error, 'storage');
  };
  return withRetries(attempt, retry, options.signal, (report) =>
    emit({ step: 'retry', transactionId, of: 'file', file: file.name, ...report }),
  );
}

/**
 * Step 2 for one file (see {@link uploadWithRetries}): uploads `file` with `grant`, retrying
 * transient failures; a 403 is final unless `options.regrant` is given.
 */
export async function uploadToStorage(
  grant: UploadGrant,
  file: AudioFile,
  options: StorageUploadOptions = {},
): Promise<void> {
  await uploadWithRetries(grant, file, options);
}
