import type { Dispatcher } from 'undici';

/*
 * Dispatch options this library sealed. If they pass a jweInterceptor again (two of them composed,
 * or a dispatcher that hands them on as they are), they go out as they are: a body this library
 * sealed is known by this private mark, never by what it looks like, and is never sealed twice.
 * Compose undici's retry interceptor after jweInterceptor so that it runs first: each attempt
 * then passes through jweInterceptor with the caller's plaintext and is sealed afresh.
 */
const sealedOptions = new WeakSet<object>();

export function markSealed(opts: Dispatcher.DispatchOptions): Dispatcher.DispatchOptions {
  sealedOptions.add(opts);
  return opts;
}

export function isSealedByUs(opts: Dispatcher.DispatchOptions): boolean {
  return sealedOptions.has(opts);
}
