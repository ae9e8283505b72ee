/// <reference lib="webworker" />
import {
  analyzeHar,
  type BodyOutcome,
  classifyInput,
  decryptedHar,
  type HarAnalysis,
  type HarRow,
  inspectEnvelope,
  type KeySet,
  redactedHar,
  requireEnvelopeBody,
} from '@jwe-transport/inspect-core';
import { readHarEntry } from '@jwe-transport/inspect-core/internal';
import type { OutcomeSummary, RowSummary, SideDetail, WorkerRequest, WorkerResponse } from './protocol.js';

/*
 * Parsing and decryption run here, off the page's main thread, so a HAR of tens of megabytes
 * never freezes the page. The worker keeps the last HAR (to open entries and export it) and
 * nothing else; keys come with each request and are not kept.
 */

const scope = self as unknown as DedicatedWorkerGlobalScope;
let har: { document: Record<string, unknown>; analysis: HarAnalysis } | undefined;
const PLAIN_LIMIT = 64 * 1024;

function send(message: WorkerResponse, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

function summarize(outcome: BodyOutcome): OutcomeSummary {
  if (outcome.kind !== 'decrypted') return outcome;
  const { payload, ...rest } = outcome;
  const size = payload.bytes.length;
  const content =
    payload.type === 'file' || payload.type === 'binary'
      ? { type: payload.type, size, mediaType: payload.media.mediaType }
      : { type: payload.type, size };
  return { ...rest, content };
}

function summarizeRow(row: HarRow): RowSummary {
  return { ...row, request: summarize(row.request), response: summarize(row.response) };
}

function titleOf(kind: string, startLine?: string): string {
  if (kind === 'compact') return 'Compact JWE';
  if (kind === 'http') return `HTTP message: ${startLine ?? ''}`;
  return 'Flattened JSON envelope';
}

async function analyze(id: number, text: string, keys: KeySet | undefined): Promise<void> {
  const input = classifyInput(text, 'The input');
  if (input.kind === 'har') {
    har = undefined;
    let lastReport = 0;
    const analysis = await analyzeHar(input.document, keys, {
      onEntry(done, total) {
        if (done - lastReport >= 25 || done === total) {
          lastReport = done;
          send({ id, type: 'progress', done, total });
        }
      },
    });
    har = { document: input.document, analysis };
    send({ id, type: 'har', entries: analysis.entries, rows: analysis.rows.map(summarizeRow) });
    return;
  }
  const envelopeText = input.kind === 'http' ? requireEnvelopeBody(input.message) : input.text;
  const inspection = await inspectEnvelope(envelopeText, keys);
  send({
    id,
    type: 'envelope',
    title: titleOf(input.kind, input.kind === 'http' ? input.message.startLine : undefined),
    inspection,
  });
}

async function openEntry(id: number, entry: number, keys: KeySet | undefined): Promise<void> {
  if (!har) throw Object.assign(new Error('No HAR file is open.'), { code: 'ERR_INPUT' });
  const row = har.analysis.rows.find((candidate) => candidate.entry === entry);
  const entries = (har.document.log as { entries: unknown[] }).entries;
  const view = readHarEntry(entries[entry - 1], entry - 1);
  if (!row || !view)
    throw Object.assign(new Error(`Entry ${entry} is not in the HAR file.`), { code: 'ERR_INPUT' });
  const sides: SideDetail[] = [];
  for (const side of view.sides) {
    if (side.text === undefined) sides.push({ side: side.side });
    else if (!side.encrypted)
      sides.push({
        side: side.side,
        plain: side.text.slice(0, PLAIN_LIMIT),
        truncated: side.text.length > PLAIN_LIMIT,
      });
    else {
      try {
        sides.push({ side: side.side, inspection: await inspectEnvelope(side.text, keys) });
      } catch (error) {
        sides.push({ side: side.side, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  send({ id, type: 'entry', row: summarizeRow(row), sides });
}

async function handle(request: WorkerRequest): Promise<void> {
  switch (request.type) {
    case 'analyze': {
      const text = request.file ? await request.file.text() : (request.text ?? '');
      await analyze(request.id, text, request.keys);
      return;
    }
    case 'entry':
      await openEntry(request.id, request.entry, request.keys);
      return;
    case 'export': {
      if (!har) throw Object.assign(new Error('Open a HAR file first.'), { code: 'ERR_INPUT' });
      const copy =
        request.which === 'decrypted'
          ? decryptedHar(har.document, har.analysis, { mask: request.mask })
          : redactedHar(har.document, { mask: request.mask });
      send({ id: request.id, type: 'export', json: JSON.stringify(copy, null, 2) });
      return;
    }
    case 'forget':
      // The decrypted results were made with the keys; they go with them.
      har = undefined;
      send({ id: request.id, type: 'done' });
      return;
  }
}

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  handle(event.data).catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    send({
      id: event.data.id,
      type: 'error',
      code: typeof code === 'string' ? code : 'ERR_INPUT',
      message: error instanceof Error ? error.message : String(error),
    });
  });
};
