import { jsonBody, serviceMessage } from '../http/body.js';
import { callService, type ServiceContext } from '../http/call.js';
import { isTranscriptionError, TranscriptionError } from './errors.js';
import type { ProgressListener } from './progress.js';
import { type Attempt, type RetryOptions, refusedAttempt, resolveRetry, withRetries } from './retry.js';
import { UPLOAD_GRANT_ACTION } from './vocabulary.js';

/** docs/wire-format.md, "Transcription workflow" > "Step 1: upload grant". */
export const UPLOAD_GRANT_PATH = '/v1/file-upload';

/** A presigned-POST grant: where to upload, the fields to send, and the folder of the files. */
export interface UploadGrant {
  /** The storage's base URL (`uploadData.url`). */
  url: string;
  /** Every granted form field, in the order the service sent them. */
  fields: ReadonlyArray<readonly [name: string, value: string]>;
  /** The folder the files land in (`folderPath`, ending with `/`). */
  folderPath: string;
  transactionId: string;
}

function invalidGrant(status: number, what: string): TranscriptionError {
  return new TranscriptionError(
    'ERR_RESPONSE_INVALID',
    `The upload grant (HTTP ${status}) ${what}: check that the base URL points at the service.`,
    { status },
  );
}

/** Reads `{ uploadData: { url, fields }, folderPath, txn_id }`, keeping the fields' order. */
export function parseUploadGrant(body: unknown, status: number, transactionId: string): UploadGrant {
  const record = (body ?? {}) as { uploadData?: { url?: unknown; fields?: unknown }; folderPath?: unknown };
  const url = record.uploadData?.url;
  const fields = record.uploadData?.fields;
  if (typeof url !== 'string' || !URL.canParse(url)) throw invalidGrant(status, 'has no uploadData.url');
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw invalidGrant(status, 'has no uploadData.fields');
  }
  const entries = Object.entries(fields as Record<string, unknown>);
  if (entries.some(([, value]) => typeof value !== 'string')) {
    throw invalidGrant(status, 'has a field that is not a string');
  }
  if (typeof record.folderPath !== 'string') throw invalidGrant(status, 'has no folderPath');
  return {
    url,
    fields: entries as Array<[string, string]>,
    folderPath: record.folderPath,
    transactionId,
  };
}

export interface GrantOptions {
  signal?: AbortSignal | undefined;
  retry?: RetryOptions | undefined;
  onProgress?: ProgressListener | undefined;
  /** Why the grant is asked for, for the progress event. Default `first`. */
  reason?: 'first' | 'policy-refused';
}

/** A network failure of an API call, which `callService` reports as `ERR_SERVICE_UNREACHABLE`. */
export const isUnreachable = (error: unknown) =>
  isTranscriptionError(error) && error.code === 'ERR_SERVICE_UNREACHABLE';

/**
 * Step 1: `POST /v1/file-upload?txn_id=<txn>&action=ekascribe-v2`; network errors, 408, 429 and
 * 5xx are retried (asking again for the same transaction is harmless).
 */
export async function requestUploadGrant(
  context: ServiceContext,
  transactionId: string,
  options: GrantOptions = {},
): Promise<UploadGrant> {
  const emit = options.onProgress ?? (() => {});
  const attempt = async (number: number): Promise<Attempt<UploadGrant>> => {
    emit({ step: 'grant', transactionId, attempt: number, reason: options.reason ?? 'first' });
    let response: Response;
    try {
      response = await callService(context, UPLOAD_GRANT_PATH, {
        method: 'POST',
        query: { txn_id: transactionId, action: UPLOAD_GRANT_ACTION },
        signal: options.signal,
      });
    } catch (error) {
      if (isUnreachable(error)) return { ok: false, reason: 'network error', error };
      throw error;
    }
    const body = await jsonBody(response);
    if (response.status === 200)
      return { ok: true, value: parseUploadGrant(body, response.status, transactionId) };
    const error = new TranscriptionError(
      'ERR_UPLOAD_GRANT_FAILED',
      `The upload grant for transaction ${JSON.stringify(transactionId)} was refused (HTTP ${response.status}).${serviceMessage(body)}${response.status === 409 ? ' The transaction was started already: it takes no more files.' : ' Check the credentials and the transaction id.'}`,
      { status: response.status },
    );
    return refusedAttempt(response, error, 'service');
  };
  return withRetries(attempt, resolveRetry(options.retry), options.signal, (report) =>
    emit({ step: 'retry', transactionId, of: 'grant', ...report }),
  );
}
