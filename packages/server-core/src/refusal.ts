import { errorBody, statusOf } from './error-body.js';
import { isJweHttpError } from './errors.js';

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
  /**
   * Logs each refusal with the request's method and path: 4xx at `info` with `code`, `status`,
   * `type` and `kid` (no stack); 5xx at `error` with the error. Default: one line per refusal on
   * stderr (`console.warn` for a 4xx, `console.error` with the stack for a 5xx); `false` logs nothing.
   */
  logger?: JweLogger | false;
  /** Called for each refusal with the error and what the answer says. */
  onReject?: RejectListener;
}

/** The request a refusal answers, as a log line names it (the path without its query). */
export interface RefusedRequest {
  method: string;
  path: string;
}

const KID_LIMIT = 64;

/** A kid fit for a log line: short, printable, no line breaks to forge entries with. */
export function loggableKid(kid: string | undefined): string | undefined {
  return kid === undefined ? undefined : kid.slice(0, KID_LIMIT).replace(/[^\x20-\x7e]/g, '?');
}

/** What the answer to `error` says, with the kid the request named (on the error, or `kid`). */
export function describeRefusal(error: unknown, kid?: string): Refusal {
  const { error: body } = errorBody(error);
  return {
    status: statusOf(error),
    code: body.code ?? 'ERR_REQUEST_INVALID',
    type: body.type,
    kid: loggableKid((isJweHttpError(error) ? error.kid : undefined) ?? kid),
    message: body.message,
  };
}

/** A path fit for a log line: no query (it may carry tokens), printable, bounded. */
function loggablePath(path: string): string {
  const end = path.search(/[?#]/);
  return (end === -1 ? path : path.slice(0, end)).slice(0, 256).replace(/[^\x20-\x7e]/g, '?');
}

/**
 * The default logger: one line per refusal on stderr (`console.warn`, `console.error`), so
 * stdout stays the application's, as Express's own error handler writes there. The line holds
 * only the fields below; a 5xx adds the error's stack, as Express prints it.
 */
export const consoleLogger: JweLogger = {
  info(details) {
    console.warn(refusalLine(details as LoggedRefusal));
  },
  error(details) {
    const { err } = details as { err?: unknown };
    const stack = err instanceof Error ? `\n${err.stack ?? `${err.name}: ${err.message}`}` : '';
    console.error(`${refusalLine(details as LoggedRefusal)}${stack}`);
  },
};

interface LoggedRefusal extends Partial<RefusedRequest> {
  status: number;
  code: string;
  kid?: string;
}

function refusalLine({ method, path, status, code, kid }: LoggedRefusal): string {
  const kidPart = kid === undefined ? '' : ` kid=${JSON.stringify(kid)}`;
  return `jwe: ${status >= 500 ? 'failed' : 'refused'} ${method ?? '-'} ${path ?? '-'} ${status} ${code}${kidPart}`;
}

/** The reporting part of an adapter's options, with the default logger where none was given. */
export function reportingOf(
  options: RefusalReporting,
  fallback: JweLogger = consoleLogger,
): RefusalReporting {
  const reporting: RefusalReporting = {};
  const logger = options.logger === undefined ? fallback : options.logger;
  if (logger) reporting.logger = logger;
  if (options.onReject) reporting.onReject = options.onReject;
  return reporting;
}

/**
 * Reports one refusal: `onReject(error, refusal)`, then the log line with the request's method
 * and path. A 4xx is logged at `info` with its code and kid only; a 5xx at `error` with the error
 * (its stack), since the server must fix it. A reporter that throws never costs the client its answer.
 */
export function reportRefusal(
  error: unknown,
  reporting: RefusalReporting,
  refusal: Refusal,
  request?: RefusedRequest,
): void {
  try {
    reporting.onReject?.(error, refusal);
  } catch {
    // The answer still goes out.
  }
  const logger = reporting.logger;
  if (!logger) return;
  const { status, code, type, kid } = refusal;
  const where = request === undefined ? {} : { method: request.method, path: loggablePath(request.path) };
  try {
    if (status >= 500)
      logger.error({ ...where, err: error, status, code, kid }, `jwe: request failed (${status} ${code})`);
    else
      logger.info(
        { ...where, status, code, type, kid },
        `jwe: request refused (${status} ${code}): ${refusal.message}`,
      );
  } catch {
    // As above.
  }
}

/**
 * Reports an answer that could not be sealed (a `JweAnswer`'s `failure`) as a 500 refusal; any
 * other answer needs nothing.
 */
export function reportSealFailure(
  answer: { readonly failure?: { readonly error: unknown; readonly report: Refusal } },
  reporting: RefusalReporting,
  request?: RefusedRequest,
): void {
  const failure = answer.failure;
  if (failure) reportRefusal(failure.error, reporting, failure.report, request);
}
