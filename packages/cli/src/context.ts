import { type OpenedInput, type OpenInputOptions, openInput } from './input/read-input.js';
import { type CliIo, writeText } from './io.js';
import { KEY_FLAG_WARNING, type KeySet, loadKeys, missingKeyError } from './keys.js';
import type { OptionValues } from './options.js';
import { type Style, styleFor } from './output/style.js';

/** What every command gets: the streams, the parsed options, and styling per stream. */
export interface CommandContext {
  io: CliIo;
  values: OptionValues;
  input: string | undefined;
  json: boolean;
  style: Style;
  errStyle: Style;
  /** A line on standard error; these are notes for people, so `--json` output on stdout stays clean. */
  note(text: string): Promise<void>;
  warn(text: string): Promise<void>;
  /** Opens the command's input; run() closes it however the command ends, so no open file keeps the process alive. */
  openInput(options?: OpenInputOptions): Promise<OpenedInput>;
  dispose(): void;
}

export function createContext(io: CliIo, values: OptionValues, input_: string | undefined): CommandContext {
  const noColor = values['no-color'] === true;
  const errStyle = styleFor(io.stderr, io.env, noColor);
  const opened: OpenedInput[] = [];
  return {
    io,
    values,
    input: input_,
    json: values.json === true,
    style: styleFor(io.stdout, io.env, noColor),
    errStyle,
    note: (text) => writeText(io.stderr, `${errStyle.dim(text)}\n`),
    warn: (text) => writeText(io.stderr, `${errStyle.yellow(text)}\n`),
    async openInput(options) {
      const input = await openInput(input_, io.stdin, options);
      opened.push(input);
      return input;
    },
    dispose() {
      for (const input of opened) input.close();
    },
  };
}

/** Loads the keys the options name; warns about `--key` and says so when a key needed none is given. */
export async function keysFor(ctx: CommandContext, required: true): Promise<KeySet>;
export async function keysFor(ctx: CommandContext, required: false): Promise<KeySet | undefined>;
export async function keysFor(ctx: CommandContext, required: boolean): Promise<KeySet | undefined> {
  const keys = await loadKeys(
    { key: ctx.values.key, keyFile: ctx.values['key-file'], keyEnv: ctx.values['key-env'] },
    ctx.io.env,
  );
  if (ctx.values.key !== undefined) await ctx.warn(KEY_FLAG_WARNING);
  for (const notice of keys?.notices ?? []) await ctx.note(`note: ${notice}`);
  if (!keys && required) throw missingKeyError();
  return keys;
}
