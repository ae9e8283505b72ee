import { parseArgs } from 'node:util';
import { usageError } from './cli-error.js';

export const COMMANDS = ['decrypt', 'encrypt', 'inspect', 'compact', 'expand', 'web', 'proxy'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Every option of every command; `parseCommandLine` then refuses the ones a command does not take. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  key: { type: 'string' },
  'key-file': { type: 'string', short: 'k' },
  'key-env': { type: 'string' },
  out: { type: 'string', short: 'o' },
  force: { type: 'boolean', short: 'f' },
  raw: { type: 'boolean' },
  file: { type: 'boolean' },
  kid: { type: 'string' },
  compact: { type: 'boolean' },
  port: { type: 'string' },
  'no-open': { type: 'boolean' },
  upstream: { type: 'string' },
  listen: { type: 'string' },
  watch: { type: 'boolean' },
  verbose: { type: 'boolean' },
  har: { type: 'string' },
  ui: { type: 'boolean' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  timeout: { type: 'string' },
  'no-mask': { type: 'boolean' },
} as const;

type OptionName = keyof typeof OPTIONS;

const GLOBAL: readonly OptionName[] = ['help', 'version', 'json', 'no-color'];
const KEYS: readonly OptionName[] = ['key', 'key-file', 'key-env'];
const ALLOWED: Record<CommandName, readonly OptionName[]> = {
  decrypt: [...GLOBAL, ...KEYS, 'out', 'force', 'raw'],
  encrypt: [...GLOBAL, ...KEYS, 'out', 'force', 'raw', 'file', 'kid', 'compact'],
  inspect: [...GLOBAL, ...KEYS],
  compact: [...GLOBAL, 'out', 'force'],
  expand: [...GLOBAL, 'out', 'force', 'kid'],
  web: ['help', 'version', 'json', 'no-color', 'port', 'no-open'],
  proxy: [
    ...(['help', 'version', 'no-color', 'kid', 'port', 'upstream', 'listen', 'watch', 'verbose'] as const),
    ...(['har', 'ui', 'ca', 'insecure', 'timeout', 'no-open', 'no-mask'] as const),
    ...KEYS,
  ],
};

export type OptionValues = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

export interface CommandLine {
  command: CommandName | undefined;
  /** The input path, `-` for standard input, or undefined (standard input too). */
  input: string | undefined;
  values: OptionValues;
}

function isCommand(word: string | undefined): word is CommandName {
  return (COMMANDS as readonly string[]).includes(word ?? '');
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [first, input, ...extra] = positionals;
  if (first === undefined) return { command: undefined, input: undefined, values };
  if (!isCommand(first)) {
    throw usageError(
      `Unknown command ${JSON.stringify(first)}. Commands: ${COMMANDS.join(', ')}. Run jwe-transport --help.`,
    );
  }
  if (extra.length > 0) {
    throw usageError(`${first} takes one input (a file, or - for standard input); got ${extra.length + 1}.`);
  }
  for (const name of Object.keys(values) as OptionName[]) {
    if (!ALLOWED[first].includes(name)) {
      throw usageError(`--${name} is not an option of ${first}. Run jwe-transport ${first} --help.`);
    }
  }
  return { command: first, input, values };
}
