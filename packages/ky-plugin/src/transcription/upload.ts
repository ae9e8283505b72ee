import { audioContentType } from './content-type.js';
import { TranscriptionError } from './errors.js';
import { type ExtraKyOptions, jsonBody, type KyLike, serviceMessage } from './http.js';
import { parseTranscriptionParams, type TranscriptionParams } from './params.js';

/**
 * Where the reference service takes audio. The real service's method and path are not documented
 * (spec 4.5), so pass `path` for another server.
 */
export const UPLOAD_PATH = 'voice/api/v2/transcriptions';

/** An audio file in memory, or on disk by path (read as a stream, never whole in memory). */
export type AudioFile =
  | { name: string; data: Blob | Uint8Array; type?: string }
  | { path: string; name?: string; type?: string };

/** One entry per uploaded file, as the reference service answers. */
export interface UploadEntry {
  file_name: string;
  transaction_id: string;
  status: string;
  [member: string]: unknown;
}

export interface UploadOptions {
  /** Default {@link UPLOAD_PATH}. */
  path?: string;
  /**
   * More ky options for this request. On an instance with `jwe()`, pass `{ context: { jwe: false } }`:
   * the encrypted upload format carries one file and no fields.
   */
  kyOptions?: ExtraKyOptions;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

async function fileFromDisk(path: string, name: string, type: string): Promise<Blob> {
  const { promises, constants, openAsBlob } = await import('node:fs');
  try {
    await promises.access(path, constants.R_OK);
    const stat = await promises.stat(path);
    if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    return await openAsBlob(path, { type });
  } catch (error) {
    const reason = (error as { code?: string }).code ?? 'unreadable';
    throw new TranscriptionError(
      'ERR_UPLOAD_FILE_UNREADABLE',
      `Cannot read the audio file ${JSON.stringify(name)} (${reason}): check that the file path is valid and the file is readable.`,
      { cause: error },
    );
  }
}

async function formPart(file: AudioFile): Promise<{ name: string; blob: Blob }> {
  if ('path' in file) {
    const name = file.name ?? baseName(file.path);
    return { name, blob: await fileFromDisk(file.path, name, file.type ?? audioContentType(name)) };
  }
  const type = file.type ?? audioContentType(file.name);
  const blob =
    file.data instanceof Blob ? file.data : new Blob([file.data as Uint8Array<ArrayBuffer>], { type });
  return { name: file.name, blob: blob.type === type ? blob : new Blob([blob], { type }) };
}

/**
 * Uploads audio for transcription (spec 2.7, 4.5) as `multipart/form-data`: one `file` part per
 * file and the parameters as fields (`output_format` and `extra_data` as JSON). The parameters are
 * checked first, so invalid template ids, model types or languages fail before anything is sent.
 */
export async function uploadAudio(
  api: KyLike,
  files: readonly AudioFile[],
  params: TranscriptionParams,
  options: UploadOptions = {},
): Promise<UploadEntry[]> {
  const checked = parseTranscriptionParams(params);
  if (files.length === 0) {
    throw new TranscriptionError(
      'ERR_TRANSCRIPTION_PARAMS_INVALID',
      'Give at least one audio file to upload.',
      {
        issues: ['files must not be empty.'],
      },
    );
  }
  const form = new FormData();
  for (const file of files) {
    const part = await formPart(file);
    form.append('file', part.blob, part.name);
  }
  if (checked.transaction_id !== undefined) form.append('transaction_id', checked.transaction_id);
  if (checked.action !== undefined) form.append('action', checked.action);
  if (checked.extra_data !== undefined) form.append('extra_data', JSON.stringify(checked.extra_data));
  form.append('output_format', JSON.stringify(checked.output_format));
  const response = await api.post(options.path ?? UPLOAD_PATH, {
    ...options.kyOptions,
    body: form,
    throwHttpErrors: false,
  });
  const answer = await jsonBody(response);
  if (!response.ok) {
    throw new TranscriptionError(
      'ERR_UPLOAD_FAILED',
      `The audio upload failed (HTTP ${response.status}).${serviceMessage(answer)} ` +
        'Check the files (path valid, readable, an audio format) and the transcription parameters.',
      { status: response.status },
    );
  }
  if (!Array.isArray(answer)) {
    throw new TranscriptionError(
      'ERR_RESPONSE_INVALID',
      `The upload answer (HTTP ${response.status}) is not a list of entries: check the upload path.`,
      { status: response.status },
    );
  }
  return answer as UploadEntry[];
}
