/**
 * `@jwe-transport/cli`: the `jwe-transport` command as a library. `run(argv, io)` executes one
 * command line against the given streams and resolves with the exit code.
 * @packageDocumentation
 */
export { EXIT, type ExitCode } from './exit-codes.js';
export type { CliIo } from './io.js';
export { run } from './run.js';
