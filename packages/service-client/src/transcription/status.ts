import { jsonBody, serviceMessage } from '../http/body.js';
import { callService, type ServiceContext } from '../http/call.js';
import { type DecodedResult, type DecodeOptions, decodeSessionResult } from './decode.js';
import { TranscriptionError } from './errors.js';
import type { SessionResult } from './result.js';

/** docs/wire-format.md, "Step 4: results"; the transaction id is appended. */
export const STATUS_PATH = '/voice/api/v3/status';

/** One answer of the status call. */
export type ResultState =
  /** 202: still processing; ask again later. */
  | { state: 'processing'; httpStatus: 202; retryAfterMs: number | undefined }
  /** 200: every template succeeded; 206: some did. */
  | { state: 'done' | 'partial'; httpStatus: 200 | 206; result: SessionResult; decoded: DecodedResult };

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 60_000) : undefined;
}

function serviceErrorCode(body: unknown): string | undefined {
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Step 4, once: `GET /voice/api/v3/status/<txn>`. 202 is `processing`, 200 `done`, 206 `partial`;
 * 400 throws `ERR_TRANSACTION_NOT_FOUND`, 500 throws `ERR_TRANSCRIPTION_FAILED` with the decoded
 * per-template errors in `result`.
 */
export async function fetchResultState(
  context: ServiceContext,
  transactionId: string,
  options: DecodeOptions & { signal?: AbortSignal | undefined } = {},
): Promise<ResultState> {
  const response = await callService(context, `${STATUS_PATH}/${encodeURIComponent(transactionId)}`, {
    method: 'GET',
    signal: options.signal,
  });
  const quoted = JSON.stringify(transactionId);
  if (response.status === 202) {
    await response.body?.cancel();
    return { state: 'processing', httpStatus: 202, retryAfterMs: retryAfterMs(response) };
  }
  const body = await jsonBody(response);
  const decodeOptions = options.expectedTemplates ? { expectedTemplates: options.expectedTemplates } : {};
  if (response.status === 200 || response.status === 206) {
    if (body === null || typeof body !== 'object') {
      throw new TranscriptionError('ERR_RESPONSE_INVALID', `The result of ${quoted} is not a JSON object.`, {
        status: response.status,
      });
    }
    return {
      state: response.status === 200 ? 'done' : 'partial',
      httpStatus: response.status,
      result: body as SessionResult,
      decoded: decodeSessionResult(body, decodeOptions),
    };
  }
  const serviceCode = serviceErrorCode(body);
  const withCode = serviceCode === undefined ? {} : { serviceCode };
  if (response.status === 400) {
    throw new TranscriptionError(
      'ERR_TRANSACTION_NOT_FOUND',
      `The service does not know transaction ${quoted} (HTTP 400${serviceCode ? `, ${serviceCode}` : ''}).${serviceMessage(body)} Check the transaction id, and that it was started.`,
      { status: 400, ...withCode },
    );
  }
  if (response.status === 500 && (body as SessionResult | undefined)?.data?.output !== undefined) {
    throw new TranscriptionError(
      'ERR_TRANSCRIPTION_FAILED',
      `Every template of transaction ${quoted} failed (HTTP 500): see error.result.documents for each template's errors.`,
      { status: 500, result: decodeSessionResult(body, decodeOptions) },
    );
  }
  throw new TranscriptionError(
    'ERR_RESULT_FAILED',
    `Fetching the result of ${quoted} failed (HTTP ${response.status}).${serviceMessage(body)}`,
    { status: response.status, ...withCode },
  );
}
