import { defaultFetch, type FetchLike } from '../http/fetch-like.js';
import { audioContentType } from './content-type.js';
import { TranscriptionError } from './errors.js';
import type { UploadGrant } from './grant.js';
import { isSizedSource, multipartStream, type SizedSource } from './multipart-stream.js';

/** Field notes: the storage policy allows up to 5 GiB per file. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

/**
 * An audio file to upload. `data` is a Blob (a browser `File`), bytes in memory, or a sized
 * stream such as a file on disk from `audioFileFromPath()` of `@jwe-transport/service-client/node`
 * (streamed at any size up to 5 GiB, never held whole).
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

/** The request body: streamed multipart for a sized source, else fetch's own FormData encoding. */
function storageBody(grant: UploadGrant, file: AudioFile): { init: RequestInit; size: number } {
  const type = file.type ?? audioContentType(file.name);
  if (isSizedSource(file.data)) {
    const multipart = multipartStream(grant.fields, { name: file.name, type, source: file.data });
    const init = {
      ...NO_CLONE,
      method: 'POST',
      body: multipart.body,
      duplex: 'half',
      headers: { 'content-type': multipart.contentType, 'content-length': String(multipart.length) },
    };
    return { init: init as RequestInit, size: file.data.size };
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
  return { init: { ...NO_CLONE, method: 'POST', body: form }, size: blob.size };
}

function storageCode(text: string): string | undefined {
  return /<Code>([A-Za-z]{1,64})<\/Code>/.exec(text)?.[1];
}

/**
 * Step 2: a browser-style presigned `POST` of one file to `grant.url`: every granted field in
 * order, then the `file` part last. Blobs are streamed by fetch, so a file from disk of any size
 * up to 5 GiB goes in constant memory. Success is 204 (any 2xx is taken); 403 means the grant
 * expired: ask for a new one.
 */
export async function uploadToStorage(
  grant: UploadGrant,
  file: AudioFile,
  options: StorageUploadOptions = {},
): Promise<void> {
  const nameProblem = checkFileName(file?.name) ?? checkFileData(file?.data);
  if (nameProblem) {
    throw new TranscriptionError('ERR_TRANSCRIPTION_PARAMS_INVALID', `Cannot upload: ${nameProblem}`, {
      issues: [nameProblem],
    });
  }
  const { init, size } = storageBody(grant, file);
  if (size > MAX_UPLOAD_BYTES) {
    throw new TranscriptionError(
      'ERR_UPLOAD_TOO_LARGE',
      `The audio file ${JSON.stringify(file.name)} has ${size} bytes; the storage takes at most ${MAX_UPLOAD_BYTES} (5 GiB) per file. Split the recording.`,
    );
  }
  if (options.signal) init.signal = options.signal;
  let response: Response;
  try {
    response = await (options.fetch ?? defaultFetch())(grant.url, init);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new TranscriptionError(
      'ERR_UPLOAD_FAILED',
      `Uploading ${JSON.stringify(file.name)} to the storage failed before an answer arrived: check the network; the grant stays valid until it expires.`,
      { cause: error },
    );
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  const text = await response.text().catch(() => '');
  const serviceCode = storageCode(text);
  const details =
    serviceCode === undefined ? { status: response.status } : { status: response.status, serviceCode };
  if (response.status === 403) {
    throw new TranscriptionError(
      'ERR_UPLOAD_GRANT_EXPIRED',
      `The storage refused ${JSON.stringify(file.name)} with 403${serviceCode ? ` (${serviceCode})` : ''}: the upload grant expired (it lasts about an hour) or its policy does not allow this file. Ask for a new grant (requestUploadGrant) and upload again.`,
      details,
    );
  }
  throw new TranscriptionError(
    'ERR_UPLOAD_FAILED',
    `The storage refused ${JSON.stringify(file.name)} (HTTP ${response.status}${serviceCode ? `, ${serviceCode}` : ''}). Check the file's size (at most 5 GiB) and try again with a new grant.`,
    details,
  );
}
