import { jsonBody, serviceMessage } from '../http/body.js';
import { callService, type ServiceContext } from '../http/call.js';
import { TranscriptionError } from './errors.js';
import { isUnreachable, type UploadGrant } from './grant.js';
import type { TranscriptionParams } from './params.js';
import type { ProgressListener } from './progress.js';
import { type Attempt, type RetryOptions, refusedAttempt, resolveRetry, withRetries } from './retry.js';
import type { Transfer } from './vocabulary.js';

/** docs/wire-format.md, "Step 3: start"; the transaction id is appended. */
export const START_PATH = '/voice/api/v2/transaction/init';

/** Members of the start call that spec 2.7 has no name for. */
export interface StartOptions {
  /** Default `non-vaded`. */
  transfer?: Transfer;
  speciality?: string;
  /** Echoed back in the result's `data.additional_data`. */
  additionalData?: Record<string, unknown>;
  signal?: AbortSignal;
  /** Retries of each step on network errors, 408, 429 and 5xx. */
  retry?: RetryOptions;
  /** Progress events: grant, each file's bytes, retries, start (and status polls where there are any). */
  onProgress?: ProgressListener;
}

/** The 201 answer of start. */
export interface StartedTranscription {
  transactionId: string;
  status: string;
  message: string | undefined;
  businessId: string | undefined;
  /**
   * True when the service answered 409 because this transaction had been started already (by an
   * earlier attempt whose answer was lost, or an earlier call): it counts as started, and
   * `status`, `message` and `businessId` are then not known.
   */
  alreadyStarted: boolean;
}

/**
 * The start body (docs/wire-format.md, "Step 3: start") from the spec's parameters: `extra_data.mode` -> `mode`,
 * `output_format.input_language` -> `input_language`, `output_format.output_template` ->
 * `output_format_template`, `batch_s3_url` = grant URL + folder, `client_generated_files` = names.
 */
export function startBody(
  params: TranscriptionParams,
  fileNames: readonly string[],
  grant: Pick<UploadGrant, 'url' | 'folderPath'>,
  options: StartOptions = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    mode: params.extra_data?.mode ?? 'dictation',
    transfer: options.transfer ?? 'non-vaded',
    batch_s3_url: grant.url + grant.folderPath,
    client_generated_files: [...fileNames],
    // Required by the documented start call; the service's own SDKs default it to `pro`.
    model_type: params.extra_data?.model_type ?? 'pro',
    input_language: [...params.output_format.input_language],
    output_format_template: params.output_format.output_template.map((template) => ({
      template_id: template.template_id,
      codification_needed: template.codification_needed,
    })),
  };
  if (options.speciality !== undefined) body.speciality = options.speciality;
  if (options.additionalData !== undefined) body.additional_data = options.additionalData;
  return body;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export interface PostStartOptions {
  signal?: AbortSignal | undefined;
  retry?: RetryOptions | undefined;
  onProgress?: ProgressListener | undefined;
  /**
   * Whether a 409 on the first attempt counts as started too (`transcribe()`: the caller asked for
   * this transaction to be started). A 409 after a lost attempt always does.
   */
  conflictIsStarted?: boolean;
}

/**
 * Step 3: `POST /voice/api/v2/transaction/init/<txn>`. Network errors, 408, 429 and 5xx are
 * retried: starting is safe to repeat because a second start of one transaction answers 409,
 * which then means that the lost attempt started it. A 409 on the first attempt is
 * `ERR_TRANSCRIPTION_ALREADY_STARTED` unless `conflictIsStarted`.
 */
export async function postStart(
  context: ServiceContext,
  transactionId: string,
  body: Record<string, unknown>,
  options: PostStartOptions = {},
): Promise<StartedTranscription> {
  const emit = options.onProgress ?? (() => {});
  const quoted = JSON.stringify(transactionId);
  const attempt = async (number: number): Promise<Attempt<StartedTranscription>> => {
    let response: Response;
    try {
      response = await callService(context, `${START_PATH}/${encodeURIComponent(transactionId)}`, {
        method: 'POST',
        json: body,
        signal: options.signal,
      });
    } catch (error) {
      if (isUnreachable(error)) return { ok: false, reason: 'network error', error };
      throw error;
    }
    const answer = (await jsonBody(response)) as Record<string, unknown> | undefined;
    if (response.status === 409) {
      if (number > 1 || options.conflictIsStarted) {
        emit({ step: 'start', transactionId, attempt: number, alreadyStarted: true });
        return {
          ok: true,
          value: {
            transactionId,
            status: 'already-started',
            message: undefined,
            businessId: undefined,
            alreadyStarted: true,
          },
        };
      }
      throw new TranscriptionError(
        'ERR_TRANSCRIPTION_ALREADY_STARTED',
        `Transaction ${quoted} was already started (HTTP 409): wait for its result, or use a new transaction id for new audio.`,
        { status: 409 },
      );
    }
    if (response.status < 200 || response.status > 299) {
      const details = Array.isArray(answer?.details)
        ? ` Missing or invalid: ${JSON.stringify(answer.details).slice(0, 300)}.`
        : '';
      const error = new TranscriptionError(
        'ERR_TRANSCRIPTION_START_FAILED',
        `Starting transaction ${quoted} failed (HTTP ${response.status}).${serviceMessage(answer)}${details}`,
        { status: response.status },
      );
      return refusedAttempt(response, error, 'service');
    }
    emit({ step: 'start', transactionId, attempt: number, alreadyStarted: false });
    return {
      ok: true,
      value: {
        transactionId: text(answer?.txn_id) ?? transactionId,
        status: text(answer?.status) ?? '',
        message: text(answer?.message),
        businessId: text(answer?.b_id),
        alreadyStarted: false,
      },
    };
  };
  return withRetries(attempt, resolveRetry(options.retry), options.signal, (report) =>
    emit({ step: 'retry', transactionId, of: 'start', ...report }),
  );
}
