import type { Opened } from '@jwe-transport/server-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The sealing state of a request: whether its envelope is still to be opened, or the key and kid
 * that seal its answers. It lives in a private field, so neither a handler nor a logger that
 * prints the whole request (`util.inspect` shows symbol-keyed properties) can read the key.
 */
class SealingState {
  readonly #state: Opened | undefined;

  constructor(state: Opened | undefined) {
    this.#state = state;
  }

  static opened(slot: SealingState | undefined): Opened | undefined {
    return slot === undefined ? undefined : slot.#state;
  }
}

/** A request that said `X-Encryption: JWE` and carries a body not yet decrypted. */
const PENDING = new SealingState(undefined);

/**
 * The slot on each request that holds its state: a property Fastify declares on every request,
 * empty for plain requests answered in plain. Not a WeakMap keyed by request: an entry per
 * request costs the garbage collector far more than a property does.
 */
const kState = Symbol('jwe-transport sealing state');

type WithState = FastifyRequest & { [kState]: SealingState | undefined };

export function declareState(fastify: FastifyInstance): void {
  fastify.decorateRequest(kState, undefined);
}

export function markPending(request: FastifyRequest): void {
  (request as WithState)[kState] = PENDING;
}

export function awaitsDecryption(request: FastifyRequest): boolean {
  return (request as WithState)[kState] === PENDING;
}

/** Requests whose upload a `preParsing` hook already streamed to disk. */
const uploaded = new WeakSet<FastifyRequest>();

export function markUploadDone(request: FastifyRequest): void {
  uploaded.add(request);
}

export function uploadDone(request: FastifyRequest): boolean {
  return uploaded.has(request);
}

/**
 * The plugin's refusal raised while the body was read (in `preParsing` or the JSON parser),
 * kept for the `preValidation` hook to answer: an error handed to Fastify there would reach the
 * application's error handler, which is not this plugin's to use.
 */
const kRefusal = Symbol('jwe-transport refusal');

type WithRefusal = FastifyRequest & { [kRefusal]: unknown };

export function declareRefusal(fastify: FastifyInstance): void {
  fastify.decorateRequest(kRefusal, undefined);
}

export function keepRefusal(request: FastifyRequest, error: unknown): void {
  (request as WithRefusal)[kRefusal] = error ?? new Error('jwe: refused');
}

export function keptRefusal(request: FastifyRequest): unknown {
  return (request as WithRefusal)[kRefusal];
}

export function setOpened(request: FastifyRequest, opened: Opened): void {
  (request as WithState)[kState] = opened.responseKey === undefined ? undefined : new SealingState(opened);
  request.jwe = opened.info;
}

/** The key and kid that seal the request's answers, if it has them. */
export function openedOf(request: FastifyRequest): Opened | undefined {
  return SealingState.opened((request as WithState)[kState]);
}

export function hasBody(request: FastifyRequest): boolean {
  const headers = request.headers;
  return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined;
}
