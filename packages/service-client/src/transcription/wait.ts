import type { ServiceContext } from '../http/call.js';
import { pause } from '../http/pause.js';
import type { DecodeOptions } from './decode.js';
import { TranscriptionError } from './errors.js';
import type { ProgressListener } from './progress.js';
import { fetchResultState, type ResultState } from './status.js';

export interface WaitOptions extends DecodeOptions {
  /** First wait after a 202, unless the service sends `Retry-After`. Default 1000 ms. */
  intervalMs?: number;
  /** Each further wait is 1.5 times the last, up to this. Default 15 000 ms. */
  maxIntervalMs?: number;
  /** Give up (`ERR_RESULT_TIMEOUT`) after this long. Default 600 000 ms. */
  timeoutMs?: number;
  /** Stops the wait (and the request in flight); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with `{ step: 'status', httpStatus, poll }` after each answer of the status call. */
  onProgress?: ProgressListener;
}

export type FinishedResult = Exclude<ResultState, { state: 'processing' }>;

/**
 * Asks for the result until it is no longer 202, waiting longer each time (or as `Retry-After`
 * says). The timer lives only while the caller awaits, and `signal` ends it at once.
 */
export async function waitForResultState(
  context: ServiceContext,
  transactionId: string,
  options: WaitOptions = {},
): Promise<FinishedResult> {
  let interval = Math.max(1, options.intervalMs ?? 1000);
  const maxInterval = Math.max(interval, options.maxIntervalMs ?? 15_000);
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  for (let poll = 1; ; poll++) {
    const answer = await fetchResultState(context, transactionId, options);
    options.onProgress?.({ step: 'status', transactionId, httpStatus: answer.httpStatus, poll });
    if (answer.state !== 'processing') return answer;
    const wait = answer.retryAfterMs ?? interval;
    if (Date.now() + wait > deadline) {
      throw new TranscriptionError(
        'ERR_RESULT_TIMEOUT',
        `Transaction ${JSON.stringify(transactionId)} was still processing when the wait gave up; wait again later or raise timeoutMs.`,
        { status: 202 },
      );
    }
    await pause(wait, options.signal);
    interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
  }
}
