import { JweRequestError } from '@jwe-transport/client-core';

/*
 * A stream body can be read once. undici's retry interceptor sends its first attempt with the
 * caller's body and a retry with a wrapper of it that it never saw read, so it retries the async
 * generator undici's fetch() makes of every body although the first attempt drained it. Sealing
 * that would send an envelope of nothing (or of what was left) as if it were the caller's upload:
 * it is refused instead. A retry is known by its handler, which undici passes again, or by the
 * body object itself.
 */
const started = new WeakSet<object>();

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** Notes that a stream body is about to be read; throws if an earlier attempt already read it. */
export function claimOneShot(body: unknown, handler: object): void {
  if (!isAsyncIterable(body)) return;
  if (started.has(body) || started.has(handler)) {
    throw new JweRequestError(
      'ERR_JWE_BODY_UNSUPPORTED',
      'This request was dispatched again (a retry) with a stream body that an earlier attempt already ' +
        'read, so it cannot be sealed again and nothing more was sent. undici.fetch() always streams ' +
        'its body: to retry an upload, send it with undici.request() and a re-readable body (bytes, ' +
        'a Blob, a File, a FormData).',
    );
  }
  started.add(body);
  started.add(handler);
}
