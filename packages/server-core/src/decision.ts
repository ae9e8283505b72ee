import type { JweHttpError } from './errors.js';
import type { Opened } from './opened.js';
import type { Refusal } from './refusal.js';

/**
 * What the engine decided an answer is, as plain data an adapter writes with its framework's own
 * calls: the status, the headers to set and to remove, and the body. Nothing here is a key.
 */
export interface JweAnswer {
  readonly status: number;
  /** Headers to set (lower-case names), replacing any value the application gave. */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers to remove (lower-case names): the application's length and ETag no longer fit a sealed body. */
  readonly remove: readonly string[];
  /** Append `X-Encryption` to `Vary` (answers may differ by it, so caches must keep them apart). */
  readonly vary: boolean;
  /** The body to write; `undefined` leaves the application's own body as it is (not sealed). */
  readonly body: string | undefined;
  /** Whether `body` is an envelope (`X-Encryption: JWE`). */
  readonly sealed: boolean;
  /**
   * Set when sealing failed and `body` is the generic 500 instead: the server's fault, which an
   * adapter reports to `logger`/`onReject` as it reports refusals.
   */
  readonly failure?: SealFailure;
}

/** An answer that could not be sealed: the error (its `cause` says why) and what the client was told. */
export interface SealFailure {
  /** `ERR_JWE_ENCRYPT_FAILED`, status 500; its message and `cause` hold no key and no plaintext. */
  readonly error: JweHttpError;
  /** What logs and `onReject` get: status 500, the code, the loggable kid and the client's message. */
  readonly report: Refusal;
}

/** The engine's answer to an error: its body, and the report that goes to logs and `onReject`. */
export interface JweRefusalAnswer extends JweAnswer {
  readonly body: string;
  /** What logs and `onReject` get: status, code, type, the loggable kid and the client's message. */
  readonly report: Refusal;
}

/** A refusal before sealing: the plain error answer, and the state that seals it (when authenticated). */
export interface PlainRefusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** `{"error": {"type", "code", "message"}}` as JSON text. */
  readonly body: string;
  readonly report: Refusal;
  /** Set once the request authenticated: its answer is sealed under this state's key. */
  readonly opened: Opened | undefined;
}

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** What the client is told when sealing fails: never the plaintext. */
export const ENCRYPT_FAILED = Object.freeze({
  type: 'jwe.encrypt.failed',
  code: 'ERR_JWE_ENCRYPT_FAILED',
  message: 'The server could not encrypt its answer.',
} as const);

/** The answer's body when sealing fails. The one copy every adapter writes. */
export const ENCRYPT_FAILED_BODY = JSON.stringify({ error: ENCRYPT_FAILED });
