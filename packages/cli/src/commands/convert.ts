import { fromCompact, parseEnvelope, toCompact } from '@jwe-transport/codec';
import { classifyInput, requireEnvelopeBody } from '@jwe-transport/inspect-core';
import { parseJsonQuietly } from '@jwe-transport/inspect-core/internal';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { ENVELOPE_READ_BYTES, readAll } from '../input/read-input.js';
import { writeJson, writeText } from '../io.js';
import { writeOutputFile } from '../output/write-file.js';

const CONVERT_LIMIT = 256 * 2 ** 20;

async function readEnvelopeText(ctx: CommandContext) {
  const input = await ctx.openInput({ readBytes: ENVELOPE_READ_BYTES });
  const bytes = await readAll(input, CONVERT_LIMIT);
  const classified = classifyInput(bytes.toString('utf8'), input.name);
  if (classified.kind === 'har') {
    throw new CliError(
      'ERR_INPUT',
      'compact and expand convert one envelope; for a HAR file use decrypt or inspect.',
    );
  }
  return classified.kind === 'http' ? requireEnvelopeBody(classified.message) : classified.text;
}

async function emit(ctx: CommandContext, text: string): Promise<void> {
  if (ctx.values.out === undefined) await writeText(ctx.io.stdout, text);
  else await writeOutputFile(ctx.values.out, text, ctx.values.force === true);
}

/** `compact`: flattened JSON to `protected..iv.ciphertext.tag`. The kid has no place there, so it is reported. */
export async function compactCommand(ctx: CommandContext): Promise<ExitCode> {
  const text = await readEnvelopeText(ctx);
  const envelope = text.startsWith('{')
    ? parseEnvelope(parseJsonQuietly(text, 'The envelope'))
    : fromCompact(text);
  const compact = toCompact(envelope);
  if (ctx.json) {
    await writeJson(ctx.io.stdout, { ok: true, compact, kid: envelope.kid ?? null });
  } else {
    await emit(ctx, `${compact}\n`);
  }
  if (envelope.kid !== undefined && !ctx.json) {
    await ctx.note(`note: compact JWE has no place for the kid; send "${envelope.kid}" alongside it.`);
  }
  return EXIT.OK;
}

/** `expand`: compact to flattened JSON, with --kid added as the top-level member the service expects. */
export async function expandCommand(ctx: CommandContext): Promise<ExitCode> {
  const text = await readEnvelopeText(ctx);
  const envelope = text.startsWith('{')
    ? parseEnvelope(parseJsonQuietly(text, 'The envelope'))
    : fromCompact(text);
  const kid = ctx.values.kid;
  const expanded = kid === undefined ? envelope : { ...envelope, kid };
  if (ctx.json) await writeJson(ctx.io.stdout, expanded);
  else await emit(ctx, `${JSON.stringify(expanded)}\n`);
  return EXIT.OK;
}
