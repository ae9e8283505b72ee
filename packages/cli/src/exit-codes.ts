/** Process exit codes of `jwe-transport`; scripts rely on them, so they never change meaning. */
export const EXIT = {
  /** The command did what was asked. */
  OK: 0,
  /** An envelope did not verify or decrypt (wrong key, modified or truncated envelope). */
  FAILED: 1,
  /** The command line or the input is wrong: unknown option, missing key, unreadable or malformed input. */
  USAGE: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
