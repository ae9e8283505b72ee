import { JweTransportError } from '@jwe-transport/codec';
import type { DecodedResult } from './decode.js';

export type TranscriptionErrorCode =
  /** Request parameters (spec 2.7) that the service would refuse; `issues` lists each one. */
  | 'ERR_TRANSCRIPTION_PARAMS_INVALID'
  /** An audio file given by path could not be opened (spec 7: file path invalid or unreadable). */
  | 'ERR_UPLOAD_FILE_UNREADABLE'
  /** A file is larger than the storage policy allows (5 GiB). */
  | 'ERR_UPLOAD_TOO_LARGE'
  /** The service refused the upload grant (`POST /v1/file-upload`). */
  | 'ERR_UPLOAD_GRANT_FAILED'
  /** The storage answered 403: the grant's policy expired (or was refused); ask for a new grant. */
  | 'ERR_UPLOAD_GRANT_EXPIRED'
  /** The storage refused or failed the upload otherwise (after the retries, for a passing failure). */
  | 'ERR_UPLOAD_FAILED'
  /** A retry needed the file again, but its source is a one-shot stream, or the file changed size meanwhile. */
  | 'ERR_UPLOAD_NOT_REPEATABLE'
  /** 409 from start: the transaction was already started. */
  | 'ERR_TRANSCRIPTION_ALREADY_STARTED'
  /** Start was refused otherwise (422 lists missing members in `details`). */
  | 'ERR_TRANSCRIPTION_START_FAILED'
  /** 400 from the status call: the service does not know the transaction. */
  | 'ERR_TRANSACTION_NOT_FOUND'
  /** 500 from the status call: every template failed; `result` holds the decoded documents. */
  | 'ERR_TRANSCRIPTION_FAILED'
  /** The service refused the webhook subscription. */
  | 'ERR_SUBSCRIPTION_FAILED'
  /** The status call answered something undocumented. */
  | 'ERR_RESULT_FAILED'
  /** The result was still processing when the wait gave up (`timeoutMs`). */
  | 'ERR_RESULT_TIMEOUT'
  /** The service could not be reached. */
  | 'ERR_SERVICE_UNREACHABLE'
  /** A body from the service did not have the documented shape. */
  | 'ERR_RESPONSE_INVALID';

export interface TranscriptionErrorDetails {
  status?: number;
  issues?: readonly string[];
  /** What the service answered: `error.code` of a 400, `details` of a 422. */
  serviceCode?: string;
  result?: DecodedResult;
  cause?: unknown;
}

// The same brand check as the codec's isJweTransportError: a second copy or bundle of this
// package makes a second class, so instanceof alone would miss its errors.
const TRANSCRIPTION_ERROR_BRAND = Symbol.for('@jwe-transport/service-client.TranscriptionError');

/**
 * A failure of the transcription workflow; a `JweTransportError` (of `@jwe-transport/codec`) with
 * a stable `code`. The message says what to check, never a secret.
 */
export class TranscriptionError extends JweTransportError {
  declare readonly code: TranscriptionErrorCode;
  /** The HTTP status of the answer, when there was one. */
  readonly status: number | undefined;
  /** For `ERR_TRANSCRIPTION_PARAMS_INVALID`: one line per invalid field. */
  readonly issues: readonly string[];
  /** The service's own error code, when it sent one (e.g. `transaction_not_found`). */
  readonly serviceCode: string | undefined;
  /** For `ERR_TRANSCRIPTION_FAILED`: the decoded result with each template's errors. */
  readonly result: DecodedResult | undefined;

  constructor(code: TranscriptionErrorCode, message: string, details: TranscriptionErrorDetails = {}) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TranscriptionError';
    Object.defineProperty(this, TRANSCRIPTION_ERROR_BRAND, { value: true });
    this.status = details.status;
    this.issues = details.issues ?? [];
    this.serviceCode = details.serviceCode;
    this.result = details.result;
  }
}

export function isTranscriptionError(value: unknown): value is TranscriptionError {
  return (
    value instanceof TranscriptionError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[TRANSCRIPTION_ERROR_BRAND] === true)
  );
}
