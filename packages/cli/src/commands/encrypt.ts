import type { Writable } from 'node:stream';
import {
  encrypt,
  encryptFile,
  encryptFileStream,
  encryptStream,
  type KeyInput,
  toCompact,
} from '@jwe-transport/codec';
import { CliError, usageError } from '../cli-error.js';
import { type CommandContext, keysFor } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type OpenedInput, remainingBytes } from '../input/read-input.js';
import { writeText } from '../io.js';
import type { KeySet } from '../keys.js';
import { openAtomicFile } from '../output/atomic-file.js';
import { pump } from '../output/pump.js';
import { outputError, writeOutputFile } from '../output/write-file.js';

type Mode = 'json' | 'file' | 'raw';

function modeOf(ctx: CommandContext): Mode {
  const chosen = (['file', 'raw'] as const).filter((name) => ctx.values[name] === true);
  if (chosen.length > 1) throw usageError('Choose one of --json (the default), --file or --raw.');
  if (chosen.length === 1 && ctx.values.json === true) {
    throw usageError(
      `--json and --${chosen[0]} contradict each other: --json means the input is a JSON body.`,
    );
  }
  return chosen[0] ?? 'json';
}

/** The key to encrypt with and the kid to send: --kid picks from a kid=key list, or labels a single key. */
export function pickKey(
  keys: KeySet,
  kidOption: string | undefined,
): { key: KeyInput; kid: string | undefined } {
  if (kidOption !== undefined) {
    const named = keys.entries.find((entry) => entry.kid === kidOption);
    if (named) return { key: named.key, kid: kidOption };
    if (keys.entries.length === 1) return { key: keys.entries[0]!.key, kid: kidOption };
    throw usageError(`--kid ${JSON.stringify(kidOption)} is not one of the kids in ${keys.source}.`);
  }
  if (keys.entries.length > 1) {
    throw usageError(`${keys.source} lists ${keys.entries.length} keys; choose one with --kid.`);
  }
  const only = keys.entries[0]!;
  return { key: only.key, kid: only.kid };
}

function checkJson(bytes: Uint8Array, name: string): void {
  try {
    JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new CliError(
      'ERR_INPUT',
      `${name} is not valid JSON. Encrypt a file upload with --file, or other bytes with --raw.`,
    );
  }
}

async function emit(ctx: CommandContext, text: string): Promise<void> {
  if (ctx.values.out === undefined) await writeText(ctx.io.stdout, text);
  else await writeOutputFile(ctx.values.out, text, ctx.values.force === true);
}

async function encryptWhole(
  ctx: CommandContext,
  input: OpenedInput,
  mode: Mode,
  key: KeyInput,
  kid: string | undefined,
) {
  const bytes = input.head;
  if (mode === 'json') checkJson(bytes, input.name);
  const options = kid === undefined ? {} : { kid };
  const envelope =
    mode === 'file' ? await encryptFile(bytes, key, options) : await encrypt(bytes, key, options);
  if (ctx.values.compact) {
    if (kid !== undefined)
      await ctx.note(`note: compact JWE has no place for the kid; send "${kid}" alongside it.`);
    await emit(ctx, `${toCompact(envelope)}\n`);
  } else {
    await emit(ctx, `${JSON.stringify(envelope)}\n`);
  }
}

async function encryptStreaming(
  ctx: CommandContext,
  input: OpenedInput,
  mode: Mode,
  key: KeyInput,
  kid: string | undefined,
) {
  if (ctx.values.compact) {
    throw usageError(
      `${input.name} is large, so it streams, and streamed output is a JSON envelope: drop --compact.`,
    );
  }
  if (mode === 'json' && !/^\s*[[{]/.test(input.head.subarray(0, 64).toString('latin1')))
    checkJson(input.head, input.name);
  const options = kid === undefined ? {} : { kid };
  const envelope =
    mode === 'file'
      ? encryptFileStream(remainingBytes(input), key, options)
      : encryptStream(remainingBytes(input), key, options);
  const file =
    ctx.values.out === undefined
      ? undefined
      : await openAtomicFile(ctx.values.out, ctx.values.force === true);
  const destination: Writable = file?.stream ?? ctx.io.stdout;
  try {
    await pump(envelope, destination);
    await writeText(destination, '\n');
    await file?.commit();
  } catch (error) {
    input.close();
    await file?.abort();
    if (file && (error as NodeJS.ErrnoException).syscall !== undefined)
      throw outputError(ctx.values.out!, error);
    throw error;
  }
}

export async function encryptCommand(ctx: CommandContext): Promise<ExitCode> {
  const mode = modeOf(ctx);
  const keys = await keysFor(ctx, true);
  const { key, kid } = pickKey(keys, ctx.values.kid);
  const input = await ctx.openInput();
  if (input.complete) await encryptWhole(ctx, input, mode, key, kid);
  else await encryptStreaming(ctx, input, mode, key, kid);
  if (ctx.values.out !== undefined) await ctx.note(`wrote the envelope to ${ctx.values.out}`);
  return EXIT.OK;
}
