import { jsonBody, serviceMessage } from '../http/body.js';
import { callService, type ServiceContext } from '../http/call.js';
import { TranscriptionError } from './errors.js';
import type { UploadGrant } from './grant.js';
import type { TranscriptionParams } from './params.js';
import type { Transfer } from './vocabulary.js';

/** Field notes, step 3; the transaction id is appended. */
export const START_PATH = '/voice/api/v2/transaction/init';

/** Members of the start call that spec 2.7 has no name for. */
export interface StartOptions {
  /** Default `non-vaded`. */
  transfer?: Transfer;
  speciality?: string;
  /** Echoed back in the result's `data.additional_data`. */
  additionalData?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** The 201 answer of start. */
export interface StartedTranscription {
  transactionId: string;
  status: string;
  message: string | undefined;
  businessId: string | undefined;
}

/**
 * The start body of the field notes from the spec's parameters: `extra_data.mode` -> `mode`,
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
    input_language: [...params.output_format.input_language],
    output_format_template: params.output_format.output_template.map((template) => ({
      template_id: template.template_id,
      codification_needed: template.codification_needed,
    })),
  };
  if (params.extra_data?.model_type !== undefined) body.model_type = params.extra_data.model_type;
  if (options.speciality !== undefined) body.speciality = options.speciality;
  if (options.additionalData !== undefined) body.additional_data = options.additionalData;
  return body;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Step 3: `POST /voice/api/v2/transaction/init/<txn>`; 409 is `ERR_TRANSCRIPTION_ALREADY_STARTED`. */
export async function postStart(
  context: ServiceContext,
  transactionId: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<StartedTranscription> {
  const response = await callService(context, `${START_PATH}/${encodeURIComponent(transactionId)}`, {
    method: 'POST',
    json: body,
    signal,
  });
  const answer = (await jsonBody(response)) as Record<string, unknown> | undefined;
  const quoted = JSON.stringify(transactionId);
  if (response.status === 409) {
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
    throw new TranscriptionError(
      'ERR_TRANSCRIPTION_START_FAILED',
      `Starting transaction ${quoted} failed (HTTP ${response.status}).${serviceMessage(answer)}${details}`,
      { status: response.status },
    );
  }
  return {
    transactionId: text(answer?.txn_id) ?? transactionId,
    status: text(answer?.status) ?? '',
    message: text(answer?.message),
    businessId: text(answer?.b_id),
  };
}
