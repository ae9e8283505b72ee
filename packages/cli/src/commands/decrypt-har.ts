import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  classifyPlaintext,
  type HarBody,
  kidMismatchWarning,
  type Payload,
  scanHar,
} from '@jwe-transport/inspect-core';
import { describePayload } from '@jwe-transport/inspect-core/internal';
import { CliError, toCliError } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { decryptWithKeys } from '../decrypt-with-keys.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { writeJson, writeText } from '../io.js';
import type { KeySet } from '../keys.js';
import { headerSourceNote } from '../output/format.js';
import { renderPayload } from '../output/render-payload.js';
import { outputError, writeOutputFile } from '../output/write-file.js';

type BodyResult =
  | {
      body: HarBody;
      ok: true;
      payload: Payload;
      kid: string | undefined;
      keyKid: string | undefined;
      /** Set when the kid named another key than the one that opened the body. */
      warning: string | null;
      note: string | undefined;
      writtenTo?: string;
    }
  | { body: HarBody; ok: false; error: CliError };

function title(body: HarBody): string {
  const status = body.status === undefined ? '' : ` -> ${body.status}`;
  return `#${body.entry} ${body.method} ${body.url}${status} (${body.side})`;
}

/** With --out, a HAR's file uploads go into that directory, one file per body. */
async function saveFile(ctx: CommandContext, result: BodyResult & { ok: true }): Promise<void> {
  const dir = ctx.values.out;
  if (dir === undefined || result.payload.type !== 'file') return;
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw outputError(dir, error);
  }
  const path = join(dir, `entry-${result.body.entry}-${result.body.side}.${result.payload.media.extension}`);
  await writeOutputFile(path, result.payload.bytes, ctx.values.force === true);
  result.writtenTo = path;
}

async function decryptBody(ctx: CommandContext, body: HarBody, keys: KeySet): Promise<BodyResult> {
  try {
    const decrypted = await decryptWithKeys(body.text.trim(), keys);
    const result: BodyResult = {
      body,
      ok: true,
      payload: await classifyPlaintext(decrypted.plaintext),
      kid: decrypted.kid,
      keyKid: decrypted.keyKid,
      warning: kidMismatchWarning(decrypted),
      note: headerSourceNote(decrypted.headerSource),
    };
    await saveFile(ctx, result);
    return result;
  } catch (error) {
    const failure = toCliError(error);
    if (failure.code === 'ERR_OUTPUT') throw failure;
    return { body, ok: false, error: failure };
  }
}

function exitCodeOf(results: BodyResult[]): ExitCode {
  const failures = results.filter((result) => !result.ok);
  if (failures.some((result) => result.error.exitCode === EXIT.FAILED)) return EXIT.FAILED;
  return failures.length > 0 ? EXIT.USAGE : EXIT.OK;
}

/** Decrypts every encrypted body of a HAR file and shows each with its method, URL and status. */
export async function decryptHar(ctx: CommandContext, document: Record<string, unknown>, keys: KeySet) {
  const scan = scanHar(document);
  if (scan.bodies.length === 0) {
    throw new CliError(
      'ERR_NOTHING_TO_DECRYPT',
      `The HAR file has ${scan.entries} entries but no body marked X-Encryption: JWE or shaped like an envelope.`,
    );
  }
  const results: BodyResult[] = [];
  for (const body of scan.bodies) results.push(await decryptBody(ctx, body, keys));
  const failed = results.filter((result) => !result.ok).length;
  if (ctx.json) {
    await writeJson(ctx.io.stdout, {
      ok: failed === 0,
      input: 'har',
      entries: scan.entries,
      bodies: results.map((result) => ({
        entry: result.body.entry,
        side: result.body.side,
        method: result.body.method,
        url: result.body.url,
        status: result.body.status ?? null,
        marked: result.body.marked,
        ...(result.ok
          ? {
              ok: true,
              kid: result.kid ?? null,
              keyKid: result.keyKid ?? null,
              kidMismatch: result.warning !== null,
              warning: result.warning,
              payload: describePayload(result.payload, result.writtenTo),
            }
          : { ok: false, error: { code: result.error.code, message: result.error.message } }),
      })),
    });
    return exitCodeOf(results);
  }
  const { style } = ctx;
  const mismatched = results.filter((result) => result.ok && result.warning !== null).length;
  const warned = mismatched === 0 ? '' : `, ${mismatched} opened with another key than their kid names`;
  let text = `HAR: ${scan.entries} entries, ${scan.bodies.length} encrypted bodies, ${failed} failed${warned}\n`;
  for (const result of results) {
    text += `\n${style.bold(title(result.body))}`;
    if (!result.ok) {
      text += `\n${style.red(`FAILED (${result.error.code}): ${result.error.message}`)}\n`;
      continue;
    }
    text += result.kid === undefined ? '\n' : style.dim(` kid "${result.kid}"\n`);
    if (result.warning) text += `${style.yellow(`warning: ${result.warning}`)}\n`;
    if (result.note) text += `${style.dim(`note: ${result.note}`)}\n`;
    if (result.writtenTo) text += `${style.dim(`saved to ${result.writtenTo}`)}\n`;
    text += renderPayload(result.payload, style, ctx.values.out === undefined);
  }
  await writeText(ctx.io.stdout, text);
  return exitCodeOf(results);
}
