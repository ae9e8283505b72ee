import type { InspectReport } from '@jwe-transport/inspect-core';
import {
  classifyInput,
  diagnose,
  requireEnvelopeBody,
  scanHar,
  verifyEnvelope,
} from '@jwe-transport/inspect-core';
import { readLooseEnvelope } from '@jwe-transport/inspect-core/internal';
import { CliError } from '../cli-error.js';
import { type CommandContext, keysFor } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { ENVELOPE_READ_BYTES, readAll } from '../input/read-input.js';
import { inspectLarge } from '../inspect/inspect-large.js';
import { renderInspectReport } from '../inspect/render.js';
import { writeJson, writeText } from '../io.js';
import type { KeySet } from '../keys.js';
import { canStreamDecrypt } from './decrypt-stream.js';

/** Inputs up to this size are read whole, so every by-hand check can run; larger envelopes are inspected in one streaming pass. */
const WHOLE_INSPECT_LIMIT = 16 * 2 ** 20;

async function inspectOne(text: string, keys: KeySet | undefined): Promise<InspectReport> {
  const { report, decoded } = diagnose(readLooseEnvelope(text));
  if (keys) report.verification = (await verifyEnvelope(text, report, decoded, keys)).verification;
  return report;
}

function exitCodeOf(reports: InspectReport[]): ExitCode {
  return reports.some((report) => report.verification && !report.verification.ok) ? EXIT.FAILED : EXIT.OK;
}

/** `inspect`: what an envelope says about itself, and with a key whether (and why not) it verifies. */
export async function inspectCommand(ctx: CommandContext): Promise<ExitCode> {
  const keys = await keysFor(ctx, false);
  const input = await ctx.openInput({ threshold: WHOLE_INSPECT_LIMIT, readBytes: ENVELOPE_READ_BYTES });
  if (!input.complete && canStreamDecrypt(input.head)) {
    const report = await inspectLarge(input, keys);
    if (ctx.json) await writeJson(ctx.io.stdout, report);
    else await writeText(ctx.io.stdout, renderInspectReport(report, keys?.source, ctx.style));
    return exitCodeOf([report]);
  }
  const bytes = await readAll(input, WHOLE_INSPECT_LIMIT);
  const classified = classifyInput(bytes.toString('utf8'), input.name);

  if (classified.kind === 'har') {
    const scan = scanHar(classified.document);
    if (scan.bodies.length === 0) {
      throw new CliError(
        'ERR_NOTHING_TO_DECRYPT',
        `The HAR file has ${scan.entries} entries but no encrypted body.`,
      );
    }
    const results: Array<{
      title: string;
      entry: number;
      side: string;
      method: string;
      url: string;
      status: number | null;
      report?: InspectReport;
      error?: string;
    }> = [];
    for (const body of scan.bodies) {
      const base = {
        entry: body.entry,
        side: body.side,
        method: body.method,
        url: body.url,
        status: body.status ?? null,
      };
      const title = `#${body.entry} ${body.method} ${body.url}${body.status ? ` -> ${body.status}` : ''} (${body.side})`;
      try {
        results.push({ ...base, title, report: await inspectOne(body.text.trim(), keys) });
      } catch (error) {
        results.push({ ...base, title, error: (error as Error).message });
      }
    }
    const reports = results.flatMap((result) => (result.report ? [result.report] : []));
    if (ctx.json) {
      await writeJson(ctx.io.stdout, {
        input: 'har',
        entries: scan.entries,
        bodies: results.map(({ title: _title, ...rest }) => rest),
      });
    } else {
      let text = '';
      for (const result of results) {
        text += `${ctx.style.bold(`== ${result.title}`)}\n`;
        text += result.report
          ? renderInspectReport(result.report, keys?.source, ctx.style)
          : `${ctx.style.red(result.error ?? '')}\n`;
        text += '\n';
      }
      await writeText(ctx.io.stdout, text);
    }
    return results.some((result) => result.error) ? EXIT.USAGE : exitCodeOf(reports);
  }

  const text = classified.kind === 'http' ? requireEnvelopeBody(classified.message) : classified.text;
  const report = await inspectOne(text, keys);
  if (ctx.json) await writeJson(ctx.io.stdout, report);
  else await writeText(ctx.io.stdout, renderInspectReport(report, keys?.source, ctx.style));
  return exitCodeOf([report]);
}
