import { type DecodedResult, decodeSessionResult } from './decode.js';
import { TranscriptionError } from './errors.js';
import { type ExtraKyOptions, jsonBody, type KyLike, serviceMessage } from './http.js';
import type { SessionResult } from './result.js';
import { SCRIBE_ACTION } from './vocabulary.js';

/** Where the reference service answers results (spec 4.6 does not show the real path). */
export const RESULT_PATH = 'voice/api/v2/transcriptions';

export interface PollOptions {
  /** Default {@link RESULT_PATH}; the session id is appended as a path segment. */
  path?: string;
  /** Default `scribe-v2`. */
  action?: string;
  /** Wait between polls while the service answers 202, unless it sends `Retry-After`. Default 1000 ms. */
  intervalMs?: number;
  /** Give up after this long. Default 120 000 ms. */
  timeoutMs?: number;
  /** Template ids that were requested, so that missing ones make the result incomplete. */
  expectedTemplates?: readonly string[];
  signal?: AbortSignal;
  /** More ky options for each request. */
  kyOptions?: ExtraKyOptions;
}

export interface PolledResult {
  /** 200 when done, 206 when the service says the result is partial. */
  httpStatus: 200 | 206;
  result: SessionResult;
  decoded: DecodedResult;
}

function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

function retryAfterMs(response: Response, fallback: number): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 60_000) : fallback;
}

/**
 * Fetches a session's result (spec 4.6), polling while the service answers 202 (field notes: 202
 * while processing, 200 when done, 206 when partial), then decodes it.
 */
export async function pollSessionResult(
  api: KyLike,
  sessionId: string,
  options: PollOptions = {},
): Promise<PolledResult> {
  const path = `${(options.path ?? RESULT_PATH).replace(/\/+$/, '')}/${encodeURIComponent(sessionId)}`;
  const interval = options.intervalMs ?? 1000;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const requestOptions: Record<string, unknown> = {
      ...options.kyOptions,
      searchParams: { action: options.action ?? SCRIBE_ACTION },
      throwHttpErrors: false,
    };
    if (options.signal) requestOptions.signal = options.signal;
    const response = await api.get(path, requestOptions);
    if (response.status === 200 || response.status === 206) {
      const result = (await jsonBody(response)) as SessionResult | undefined;
      if (result === undefined) {
        throw new TranscriptionError(
          'ERR_RESPONSE_INVALID',
          `The result of session ${sessionId} is not JSON.`,
          {
            status: response.status,
          },
        );
      }
      const decodeOptions = options.expectedTemplates ? { expectedTemplates: options.expectedTemplates } : {};
      return { httpStatus: response.status, result, decoded: decodeSessionResult(result, decodeOptions) };
    }
    if (response.status !== 202) {
      const answer = await jsonBody(response);
      throw new TranscriptionError(
        'ERR_RESULT_FAILED',
        `Fetching the result of session ${JSON.stringify(sessionId)} failed (HTTP ${response.status}).${serviceMessage(answer)} ` +
          'Check the session id (the transaction id of the upload) and the action.',
        { status: response.status },
      );
    }
    await response.body?.cancel();
    const wait = retryAfterMs(response, interval);
    if (Date.now() + wait > deadline) {
      throw new TranscriptionError(
        'ERR_RESULT_TIMEOUT',
        `Session ${JSON.stringify(sessionId)} was still processing when the poller gave up; poll again later or raise timeoutMs.`,
        { status: 202 },
      );
    }
    await waitFor(wait, options.signal);
  }
}
