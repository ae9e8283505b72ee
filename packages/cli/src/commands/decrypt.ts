import { classifyInput, classifyPlaintext, requireEnvelopeBody } from '@jwe-transport/inspect-core';
import { describePayload } from '@jwe-transport/inspect-core/internal';
import { CliError } from '../cli-error.js';
import { type CommandContext, keysFor } from '../context.js';
import { type DecryptedEnvelope, decryptWithKeys } from '../decrypt-with-keys.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { ENVELOPE_READ_BYTES, readAll } from '../input/read-input.js';
import { writeBytes, writeJson, writeText } from '../io.js';
import type { KeySet } from '../keys.js';
import { headerSourceNote } from '../output/format.js';
import { renderPayload } from '../output/render-payload.js';
import { writeOutputFile } from '../output/write-file.js';
import { decryptHar } from './decrypt-har.js';
import { canStreamDecrypt, streamDecrypt } from './decrypt-stream.js';

/** Inputs that cannot stream (HAR files, compact JWEs, HTTP captures) are read whole up to this size, well below V8's longest string (2^29 - 24 characters). */
export const WHOLE_INPUT_LIMIT = 256 * 2 ** 20;

function describeInput(kind: string): string {
  return kind === 'envelope'
    ? 'flattened JSON envelope'
    : kind === 'compact'
      ? 'compact JWE'
      : 'HTTP message';
}

async function reportNotes(ctx: CommandContext, result: DecryptedEnvelope): Promise<void> {
  const note = headerSourceNote(result.headerSource);
  if (note) await ctx.note(`note: ${note}`);
  if (result.kidMismatch) {
    await ctx.warn(
      `warning: the envelope names kid "${result.kid}" but authenticated with the key listed as "${result.keyKid}".`,
    );
  }
}

export async function decryptCommand(ctx: CommandContext): Promise<ExitCode> {
  if (ctx.json && ctx.values.raw && ctx.values.out === undefined) {
    throw new CliError(
      'ERR_USAGE',
      '--raw with --json needs --out PATH: raw bytes do not fit in a JSON report.',
    );
  }
  const keys = await keysFor(ctx, true);
  const input = await ctx.openInput({ readBytes: ENVELOPE_READ_BYTES });
  if (!input.complete && canStreamDecrypt(input.head)) return streamDecrypt(ctx, input, keys);
  const bytes = await readAll(input, WHOLE_INPUT_LIMIT);
  const classified = classifyInput(bytes.toString('utf8'), input.name);
  if (classified.kind === 'har') return decryptHar(ctx, classified.document, keys);
  const envelopeText = classified.kind === 'http' ? requireEnvelopeBody(classified.message) : classified.text;
  if (classified.kind === 'http' && !ctx.json) await ctx.note(classified.message.startLine);
  const result = await decryptWithKeys(envelopeText.trim(), keys);
  const startLine = classified.kind === 'http' ? classified.message.startLine : undefined;
  return showDecrypted(ctx, describeInput(classified.kind), result, keys, startLine);
}

async function showDecrypted(
  ctx: CommandContext,
  inputKind: string,
  result: DecryptedEnvelope,
  keys: KeySet,
  startLine: string | undefined,
): Promise<ExitCode> {
  const { out, raw, force } = ctx.values;
  const payload = await classifyPlaintext(result.plaintext);
  let writtenTo: string | undefined;
  if (out !== undefined) {
    // --out gets the file bytes of an upload, otherwise the plaintext exactly as it was encrypted.
    const bytes = payload.type === 'file' && !raw ? payload.bytes : result.plaintext;
    await writeOutputFile(out, bytes, force === true);
    writtenTo = out;
  }
  if (ctx.json) {
    await writeJson(ctx.io.stdout, {
      ok: true,
      input: inputKind,
      ...(startLine === undefined ? {} : { startLine }),
      kid: result.kid ?? null,
      ...(keys.entries.length > 1 ? { keyKid: result.keyKid ?? null } : {}),
      headerSource: result.headerSource,
      payload: describePayload(payload, writtenTo),
    });
    return EXIT.OK;
  }
  await reportNotes(ctx, result);
  const kid = result.kid === undefined ? 'no kid' : `kid "${result.kid}"`;
  await ctx.note(`decrypted ${inputKind}, ${kid}`);
  if (raw && writtenTo === undefined) {
    await writeBytes(ctx.io.stdout, result.plaintext);
    return EXIT.OK;
  }
  if (writtenTo !== undefined) {
    const size = payload.type === 'file' && !raw ? payload.bytes.length : result.plaintext.length;
    await ctx.note(`wrote ${size.toLocaleString('en-US')} bytes to ${writtenTo}`);
    return EXIT.OK;
  }
  await writeText(ctx.io.stdout, renderPayload(payload, ctx.style, true));
  return EXIT.OK;
}
