import { pause } from '../http/pause.js';

/**
 * How a step of the workflow (grant, each file upload, start, status) is tried again after a
 * transient failure: a network error, 408, 429 or 5xx. See docs/wire-format.md, "Transcription
 * workflow", for which answers count as transient.
 */
export interface RetryOptions {
  /**
   * Attempts per step, the first included. Default 5; 1 turns retries off. An upload refused
   * with 403 and sent again with a fresh grant does not spend one (the fresh grants are bounded
   * on their own).
   */
  attempts?: number;
  /** The first backoff, ms; each further one doubles, with jitter. Default 500. */
  baseDelayMs?: number;
  /** The longest backoff, and the longest `Retry-After` honoured, ms. Default 30 000. */
  maxDelayMs?: number;
}

export interface ResolvedRetry {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function resolveRetry(options: RetryOptions = {}): ResolvedRetry {
  const whole = (value: number | undefined, fallback: number, min: number) =>
    Number.isFinite(value) ? Math.max(min, Math.floor(value as number)) : fallback;
  const baseDelayMs = whole(options.baseDelayMs, 500, 0);
  return {
    attempts: whole(options.attempts, 5, 1),
    baseDelayMs,
    maxDelayMs: Math.max(baseDelayMs, whole(options.maxDelayMs, 30_000, 0)),
  };
}

/** 408, 429 and 5xx: the storage or the service may answer differently next time. */
export const isTransientStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** `Retry-After` in seconds or as an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const text = response.headers.get('retry-after')?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * The wait before attempt `failed + 1`: the server's `Retry-After` when it sent one (capped at
 * `maxDelayMs`), else exponential backoff with "equal jitter" (between half and all of
 * `baseDelayMs * 2^(failed-1)`, capped), so that many clients failing together spread out.
 */
export function backoffMs(failed: number, retry: ResolvedRetry, serverSays?: number): number {
  if (serverSays !== undefined) return Math.min(serverSays, retry.maxDelayMs);
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** Math.max(0, failed - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * What one attempt came to: a value, or a transient failure worth another attempt. `renewed`
 * says the failure was answered by renewing what the next attempt carries (a fresh upload grant):
 * that next attempt is a new request, not a repeat, so it does not spend one of `attempts`. The
 * caller bounds renewals itself.
 */
export type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; error: unknown; reason: string; retryAfterMs?: number | undefined; renewed?: true };

/**
 * The attempt an HTTP refusal comes to: a transient status (408, 429, 5xx) is worth another try,
 * after the server's `Retry-After` when it sent one; any other status is final and `error` is thrown.
 */
export function refusedAttempt(
  response: Response,
  error: unknown,
  by: 'service' | 'storage',
): Attempt<never> {
  if (!isTransientStatus(response.status)) throw error;
  return {
    ok: false,
    reason: `${by} answered ${response.status}`,
    error,
    retryAfterMs: retryAfterMs(response),
  };
}

export interface RetryReport {
  /** The attempt that failed (1-based). */
  attempt: number;
  delayMs: number;
  reason: string;
}

/**
 * Runs `attempt` until it succeeds or `retry.attempts` are spent (then the last failure is
 * thrown); a `renewed` failure spends none. Attempts are numbered 1, 2, ... across renewals.
 * Anything `attempt` throws is final and passes straight through; so does an abort, which also
 * ends a backoff wait at once.
 */
export async function withRetries<T>(
  attempt: (number: number) => Promise<Attempt<T>>,
  retry: ResolvedRetry,
  signal: AbortSignal | undefined,
  onRetry: (report: RetryReport) => void,
): Promise<T> {
  let spent = 0;
  for (let number = 1; ; number++) {
    signal?.throwIfAborted();
    const outcome = await attempt(number);
    if (outcome.ok) return outcome.value;
    if (!outcome.renewed && ++spent >= retry.attempts) throw outcome.error;
    const delayMs = backoffMs(spent, retry, outcome.retryAfterMs);
    onRetry({ attempt: number, delayMs, reason: outcome.reason });
    await pause(delayMs, signal);
  }
}
