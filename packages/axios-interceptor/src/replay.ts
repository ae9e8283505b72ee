import { JweRequestError } from '@jwe-transport/client-core';
import type { InternalAxiosRequestConfig } from 'axios';

/*
 * axios-retry and the token-refresh replay (`return api(error.config)`) send a failed call's config
 * through the interceptors again; the replay must be sealed afresh from the caller's own data,
 * never from the envelope the first attempt carried. Two things make sure of it:
 * - once the answer (or the error) is handled, the config is put back as the caller made it, so
 *   `error.config` is the caller's plaintext call;
 * - a replay made before that (by an interceptor that runs before this library's) still carries
 *   this library's mark: axios's mergeConfig drops symbol keys but copies the `transformRequest` /
 *   `transformResponse` arrays with their functions, so the mark is a function made for that call
 *   alone, known by a module-private WeakMap, whatever the body looks like.
 * A caller's stream is read once; a replay of it fails closed instead of going out empty.
 */

/** A call's config as the caller made it, before this library sealed it. */
export interface Original {
  data: unknown;
  contentType: unknown;
  responseType: InternalAxiosRequestConfig['responseType'];
  transformRequest: InternalAxiosRequestConfig['transformRequest'];
  transformResponse: InternalAxiosRequestConfig['transformResponse'];
  maxRedirects: number | undefined;
  transport: unknown;
  onUploadProgress: InternalAxiosRequestConfig['onUploadProgress'];
  /** A caller's stream: it was read once, and cannot be sealed again. */
  oneShot: boolean;
}

const originals = new WeakMap<object, Original>();

/** A pass-through transform that marks a config as changed by this library. */
export function marker(original: Original): <T>(data: T) => T {
  const keep = <T>(data: T): T => data;
  originals.set(keep, original);
  return keep;
}

export function recall(config: InternalAxiosRequestConfig): Original | undefined {
  for (const list of [config.transformRequest, config.transformResponse]) {
    const first = Array.isArray(list) ? list[0] : list;
    const original = typeof first === 'function' ? originals.get(first) : undefined;
    if (original) return original;
  }
  return undefined;
}

/** Streams this library has read and sealed: a replay of one of them is refused, never sent empty. */
const readStreams = new WeakSet<object>();

/** Notes that `data` (a caller's stream) has been read; a later call with it fails closed. */
export function noteRead(original: Original): void {
  if (original.oneShot) readStreams.add(original.data as object);
}

/** Whether `data` is a stream this library already read for an earlier attempt. */
export function wasRead(data: unknown): boolean {
  return typeof data === 'object' && data !== null && readStreams.has(data);
}

export function alreadyRead(): JweRequestError {
  return new JweRequestError(
    'ERR_JWE_BODY_UNSUPPORTED',
    'This call is being sent again (a retry or a replay of its config), but its body is a stream that ' +
      'was read and sealed on the first attempt, and a stream cannot be read twice. Send a Blob, a file ' +
      'from disk (fileFromPath) or bytes to make the upload retryable.',
  );
}

/**
 * Puts the config back as the caller made it: after the answer is handled (so that `error.config`
 * is the caller's, ready to be sent again), or when a replay still carries this library's changes.
 */
export function putBack(config: InternalAxiosRequestConfig, original: Original): void {
  config.data = original.data;
  const settings = config as {
    responseType?: unknown;
    transformRequest?: unknown;
    transformResponse?: unknown;
    maxRedirects?: number | undefined;
    transport?: unknown;
    onUploadProgress?: unknown;
  };
  settings.onUploadProgress = original.onUploadProgress;
  settings.responseType = original.responseType;
  settings.transformRequest = original.transformRequest;
  settings.transformResponse = original.transformResponse;
  settings.maxRedirects = original.maxRedirects;
  settings.transport = original.transport;
  const headers = config.headers as InternalAxiosRequestConfig['headers'] | undefined;
  if (!headers) return;
  headers.delete('X-Encryption');
  if (original.contentType === undefined || original.contentType === null) headers.delete('Content-Type');
  else headers.set('Content-Type', original.contentType as string);
}

/** A replayed config that still carries this library's changes, made ready to be sealed again. */
export function replay(config: InternalAxiosRequestConfig, original: Original): void {
  if (original.oneShot) throw alreadyRead();
  putBack(config, original);
}
