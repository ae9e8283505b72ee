export type TranscriptionErrorCode =
  /** Request parameters (spec 2.7) that the service would refuse; `issues` lists each one. */
  | 'ERR_TRANSCRIPTION_PARAMS_INVALID'
  /** An audio file given by path could not be opened (spec 7: file path invalid or unreadable). */
  | 'ERR_UPLOAD_FILE_UNREADABLE'
  /** The service refused or failed an upload. */
  | 'ERR_UPLOAD_FAILED'
  /** The service refused the webhook subscription. */
  | 'ERR_SUBSCRIPTION_FAILED'
  /** The result endpoint answered something other than 200, 202 or 206. */
  | 'ERR_RESULT_FAILED'
  /** The result was still processing when the poller gave up. */
  | 'ERR_RESULT_TIMEOUT'
  /** A body from the service did not have the documented shape. */
  | 'ERR_RESPONSE_INVALID';

/** A failure of the transcription workflow helpers; the message says what to check. */
export class TranscriptionError extends Error {
  readonly code: TranscriptionErrorCode;
  /** The HTTP status of the answer, when there was one. */
  readonly status: number | undefined;
  /** For `ERR_TRANSCRIPTION_PARAMS_INVALID`: one line per invalid field. */
  readonly issues: readonly string[];

  constructor(
    code: TranscriptionErrorCode,
    message: string,
    details: { status?: number; issues?: readonly string[]; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TranscriptionError';
    this.code = code;
    this.status = details.status;
    this.issues = details.issues ?? [];
  }
}

export function isTranscriptionError(value: unknown): value is TranscriptionError {
  return value instanceof TranscriptionError;
}
