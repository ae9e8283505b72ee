import { isJweError, type JweErrorCode, JweTransportError } from '@jwe-transport/codec';
import { type InspectErrorCode, isInspectError } from '@jwe-transport/inspect-core';
import { EXIT, type ExitCode } from './exit-codes.js';

/** Codes of failures the CLI itself detects; codec failures keep their `ERR_JWE_*`/`ERR_KEY_*` code. */
export type CliErrorCode =
  | 'ERR_USAGE'
  | 'ERR_INPUT'
  | 'ERR_KEY_MISSING'
  | 'ERR_OUTPUT'
  | 'ERR_NOT_AN_ENVELOPE'
  | 'ERR_NOTHING_TO_DECRYPT';

/**
 * A failure to report to the user: a stable `code`, the exit code, and a message that says what to
 * do next. Messages never contain key material or plaintext.
 */
export class CliError extends JweTransportError {
  declare readonly code: CliErrorCode | JweErrorCode;
  readonly exitCode: ExitCode;

  constructor(code: CliErrorCode | JweErrorCode, message: string, exitCode: ExitCode = EXIT.USAGE) {
    super(code, message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): CliError {
  return new CliError('ERR_USAGE', message, EXIT.USAGE);
}

export function inputError(message: string): CliError {
  return new CliError('ERR_INPUT', message, EXIT.USAGE);
}

/** Authentication failures exit 1; every other codec complaint is about the input and exits 2. */
export function exitCodeForJweCode(code: JweErrorCode | InspectErrorCode): ExitCode {
  return code === 'ERR_JWE_DECRYPTION_FAILED' ? EXIT.FAILED : EXIT.USAGE;
}

/** Turns anything thrown into a reportable error; unexpected errors keep only their message. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (isJweError(error) || isInspectError(error))
    return new CliError(error.code, error.message, exitCodeForJweCode(error.code));
  const nodeCode = (error as { code?: unknown } | null)?.code;
  if (typeof nodeCode === 'string' && nodeCode.startsWith('ERR_PARSE_ARGS')) {
    // node:util's wording suggests `--` for unknown options, which is not what people mean here.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    const message = unknown === undefined ? (error as Error).message : `Unknown option ${unknown}.`;
    return usageError(`${message} Run with --help for the options.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CliError('ERR_INPUT', message, EXIT.USAGE);
}
