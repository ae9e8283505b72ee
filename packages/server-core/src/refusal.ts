import { errorBody, statusOf } from './error-body.js';
import type { JweServer, Opened } from './jwe-server.js';
import type { RecordingResolver } from './keys.js';

/**
 * A logger as pino, Fastify's `request.log`, `console` and most others are: `(object, message)`.
 * Only `info` (refusals, 4xx) and `error` (failures, 5xx) are called.
 */
export interface JweLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What a refused request is told and what a log may keep: never keys, plaintext or the body. */
export interface Refusal {
  status: number;
  /** The stable code of the answer (`ERR_INTERNAL` for a 5xx that is not ours). */
  code: string;
  type: string;
  /**
   * The `kid` the envelope named, cut to 64 printable characters. It is not authenticated (the
   * request may have failed because of it): a clue for the operator, not an identity.
   */
  kid: string | undefined;
  /** The message the client got. */
  message: string;
}

/** Told about every refusal, 4xx and 5xx, before its answer is written. */
export type RejectListener = (error: unknown, refusal: Refusal) => void;

/** Where an adapter reports refusals: `logger` and/or `onReject`. */
export interface RefusalReporting {
  /** Logs each refusal: 4xx at `info` with `code`, `status`, `type` and `kid` (no stack); 5xx at `error` with the error. */
  logger?: JweLogger;
  /** Called for each refusal with the error and what the answer says. */
  onReject?: RejectListener;
}

const kids = new WeakMap<object, string>();
const KID_LIMIT = 64;

/** A kid fit for a log line: short, printable, no line breaks to forge entries with. */
export function loggableKid(kid: string | undefined): string | undefined {
  return kid === undefined ? undefined : kid.slice(0, KID_LIMIT).replace(/[^\x20-\x7e]/g, '?');
}

/** Remembers the kid a failed request named, for its log line. */
export function noteKid(error: unknown, kid: string | undefined): void {
  if (kid !== undefined && typeof error === 'object' && error !== null && !kids.has(error)) {
    kids.set(error, kid);
  }
}

/** Errors raised after the envelope authenticated, with the state that seals their answer. */
const afterAuthentication = new WeakMap<object, Opened>();

/** From here on even the error answers go out sealed: the envelope authenticated. */
export function rememberOpened(error: unknown, opened: Opened): void {
  if (typeof error === 'object' && error !== null) afterAuthentication.set(error, opened);
}

/** The sealing state of an error raised after authentication (`undefined` before it). */
export function openedOfError(error: unknown): Opened | undefined {
  return typeof error === 'object' && error !== null ? afterAuthentication.get(error) : undefined;
}

/** `rememberOpened` from a resolver that handed out a key (no-op when none was used). */
export function sealAfterAuthentication(
  server: JweServer,
  error: unknown,
  recorder: RecordingResolver,
): void {
  const used = recorder.used;
  if (used === undefined) return;
  rememberOpened(
    error,
    server.opened({ kid: used.kid, header: used.header, headerSource: undefined }, recorder),
  );
}

/** What the answer to `error` says, with the kid the request named. */
export function describeRefusal(error: unknown): Refusal {
  const { error: body } = errorBody(error);
  const kid = typeof error === 'object' && error !== null ? kids.get(error) : undefined;
  return {
    status: statusOf(error),
    code: body.code ?? 'ERR_REQUEST_INVALID',
    type: body.type,
    kid: loggableKid(kid),
    message: body.message,
  };
}

/**
 * Reports one refusal: `onReject(error, refusal)`, then the log line. A 4xx is logged at `info`
 * with its code and message only; a 5xx at `error` with the error (its stack), since the server
 * must fix it. A reporter that throws never costs the client its answer.
 */
export function reportRefusal(
  error: unknown,
  reporting: RefusalReporting,
  refusal = describeRefusal(error),
): void {
  try {
    reporting.onReject?.(error, refusal);
  } catch {
    // The answer still goes out.
  }
  const logger = reporting.logger;
  if (!logger) return;
  const { status, code, type, kid } = refusal;
  try {
    if (status >= 500)
      logger.error({ err: error, status, code, kid }, `jwe: request failed (${status} ${code})`);
    else
      logger.info(
        { status, code, type, kid },
        `jwe: request refused (${status} ${code}): ${refusal.message}`,
      );
  } catch {
    // As above.
  }
}
