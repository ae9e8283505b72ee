import { WebhookError } from './errors.js';

/** Default of `storeTimeoutMs`: long enough for a slow Redis, short enough for the sender's timeout. */
export const DEFAULT_STORE_TIMEOUT_MS = 3000;

/** Why a store call failed, in a few words: its timeout, or the error's code or message. */
export function storeFailureReason(timeoutMs: number, cause: unknown): string {
  if (cause === 'timeout') return `did not answer within ${timeoutMs} ms`;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  return `failed (${typeof code === 'string' ? code : typeof message === 'string' ? message : String(cause)})`;
}

export function storeUnavailable(timeoutMs: number, cause: unknown): WebhookError {
  return new WebhookError(
    'webhook.store.unavailable',
    `The receiver's store ${storeFailureReason(timeoutMs, cause)}, so this delivery could not be claimed and was not handled: deliver it again later.`,
    cause === 'timeout' ? undefined : { cause },
  );
}

/**
 * Runs one store operation, bounded: a client that queues commands while offline (ioredis does)
 * would otherwise hold the delivery until the store is back. Past `timeoutMs` it rejects with
 * `webhook.store.unavailable`; the operation itself may still complete later, and then `late`
 * gets its value (to undo a claim nobody will use). The timer lives only while the call waits.
 */
export function boundedStoreCall<T>(
  operation: () => Promise<T>,
  timeoutMs: number,
  late?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(storeUnavailable(timeoutMs, 'timeout'));
    }, timeoutMs);
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(operation());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        clearTimeout(timer);
        if (!timedOut) resolve(value);
        else late?.(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(storeUnavailable(timeoutMs, error));
      },
    );
  });
}

export function isStoreUnavailable(error: unknown): error is WebhookError {
  return error instanceof WebhookError && error.type === 'webhook.store.unavailable';
}
