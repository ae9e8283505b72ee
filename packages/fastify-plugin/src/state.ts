import type { Opened } from '@jwe-transport/server-core/adapter';
import type { FastifyRequest } from 'fastify';

/** The sealing state of each request, kept beside it so that handlers never reach the key. */
const openedByRequest = new WeakMap<FastifyRequest, Opened>();

/** Requests that said `X-Encryption: JWE` and carry a body not yet decrypted. */
const pending = new WeakSet<FastifyRequest>();

export function markPending(request: FastifyRequest): void {
  pending.add(request);
}

export function awaitsDecryption(request: FastifyRequest): boolean {
  return pending.has(request);
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
  pending.delete(request);
  openedByRequest.set(request, opened);
  request.jwe = opened.info;
}

export function openedOf(request: FastifyRequest): Opened | undefined {
  return openedByRequest.get(request);
}

export function hasBody(request: FastifyRequest): boolean {
  const headers = request.headers;
  return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined;
}
