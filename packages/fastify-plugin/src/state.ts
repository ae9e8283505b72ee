import type { Opened } from '@jwe-transport/server-core/adapter';
import type { FastifyRequest } from 'fastify';

/** Marks a request that said `X-Encryption: JWE` and carries a body not yet decrypted. */
const PENDING = Symbol('pending');

/**
 * The sealing state of each request, kept beside it so that handlers never reach the key: one
 * entry per request that has a key or awaits one, none for plain requests that answer in plain.
 */
const stateByRequest = new WeakMap<FastifyRequest, Opened | typeof PENDING>();

export function markPending(request: FastifyRequest): void {
  stateByRequest.set(request, PENDING);
}

export function awaitsDecryption(request: FastifyRequest): boolean {
  return stateByRequest.get(request) === PENDING;
}

/** Requests whose upload a `preParsing` hook already streamed to disk. */
const uploaded = new WeakSet<FastifyRequest>();

export function markUploadDone(request: FastifyRequest): void {
  uploaded.add(request);
}

export function uploadDone(request: FastifyRequest): boolean {
  return uploaded.has(request);
}

export function setOpened(request: FastifyRequest, opened: Opened): void {
  if (opened.responseKey !== undefined) stateByRequest.set(request, opened);
  else stateByRequest.delete(request);
  request.jwe = opened.info;
}

/** The key and kid that seal the request's answers, if it has them. */
export function openedOf(request: FastifyRequest): Opened | undefined {
  const state = stateByRequest.get(request);
  return state === PENDING ? undefined : state;
}

export function hasBody(request: FastifyRequest): boolean {
  const headers = request.headers;
  return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined;
}
