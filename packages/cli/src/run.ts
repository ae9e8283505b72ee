import { type CliError, toCliError } from './cli-error.js';
import { compactCommand, expandCommand } from './commands/convert.js';
import { decryptCommand } from './commands/decrypt.js';
import { encryptCommand } from './commands/encrypt.js';
import { inspectCommand } from './commands/inspect.js';
import { proxyCommand } from './commands/proxy.js';
import { webCommand } from './commands/web.js';
import { type CommandContext, createContext } from './context.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { helpFor } from './help.js';
import { type CliIo, writeJson, writeText } from './io.js';
import { type CommandName, parseCommandLine } from './options.js';
import { styleFor } from './output/style.js';

declare const __CLI_VERSION__: string;

const COMMANDS: Record<CommandName, (ctx: CommandContext) => Promise<ExitCode>> = {
  decrypt: decryptCommand,
  encrypt: encryptCommand,
  inspect: inspectCommand,
  compact: compactCommand,
  expand: expandCommand,
  web: webCommand,
  proxy: proxyCommand,
};

async function reportError(io: CliIo, error: CliError, json: boolean, noColor: boolean): Promise<void> {
  if (json) {
    await writeJson(io.stdout, {
      ok: false,
      error: { code: error.code, message: error.message, exitCode: error.exitCode },
    });
    return;
  }
  const style = styleFor(io.stderr, io.env, noColor);
  await writeText(io.stderr, `${style.red('error')} ${style.dim(`(${error.code})`)}: ${error.message}\n`);
}

/**
 * Runs one `jwe-transport` command line and resolves with its exit code; it never calls
 * process.exit, so it can be embedded and tested in-process.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  // Known before parsing, so that even a usage error is reported as JSON to a script that asked.
  const wantsJson = argv.includes('--json') && !(argv[0] === 'encrypt');
  try {
    const { command, input, values } = parseCommandLine(argv);
    if (values.version) {
      await writeText(
        io.stdout,
        `${typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'development'}\n`,
      );
      return EXIT.OK;
    }
    if (values.help || command === undefined) {
      await writeText(values.help ? io.stdout : io.stderr, helpFor(command));
      return values.help ? EXIT.OK : EXIT.USAGE;
    }
    const ctx = createContext(io, values, input);
    try {
      return await COMMANDS[command](ctx);
    } finally {
      ctx.dispose();
    }
  } catch (error) {
    const failure = toCliError(error);
    await reportError(io, failure, wantsJson, argv.includes('--no-color'));
    return failure.exitCode;
  }
}
