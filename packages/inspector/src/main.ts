import {
  checkWebhookSignature,
  type Inspection,
  type KeySet,
  keyFingerprint,
  maskIdentifiers,
  parseKeyText,
} from '@jwe-transport/inspect-core';
import { byId, facts, h } from './dom.js';
import type { RowSummary, SideDetail, WorkerRequest, WorkerResponse } from './protocol.js';
import { filterRows, type HarFilters, harTable, outcomeText } from './render-har.js';
import { type RenderContext, renderInspection } from './render-inspection.js';

declare const __WORKER_SOURCE__: string;

// ---- State: held in this page's memory only (no storage, no URL, no history). ----
let keys: KeySet | undefined;
let fingerprints = new Map<string | null, string>();
let view:
  | { kind: 'envelope'; title: string; inspection: Inspection }
  | { kind: 'har'; entries: number; rows: RowSummary[]; detail?: { row: RowSummary; sides: SideDetail[] } }
  | undefined;
let blobUrls: string[] = [];

const input = byId<HTMLTextAreaElement>('input');
const keysField = byId<HTMLTextAreaElement>('keys');
const fileInput = byId<HTMLInputElement>('file');
const maskToggle = byId<HTMLInputElement>('mask');
const status = byId<HTMLParagraphElement>('status');
const result = byId<HTMLElement>('result');
const resultBody = byId<HTMLDivElement>('result-body');
const keyList = byId<HTMLDivElement>('key-list');
const filters: HarFilters = { url: '', status: '', outcome: 'any' };

// ---- The worker: created from the inline source as a Blob (the policy allows blob: workers only). ----
let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<
  number,
  { resolve(r: WorkerResponse): void; progress?: (r: WorkerResponse) => void }
>();

function getWorker(): Worker {
  if (worker) return worker;
  const url = URL.createObjectURL(new Blob([__WORKER_SOURCE__], { type: 'text/javascript' }));
  worker = new Worker(url);
  URL.revokeObjectURL(url);
  worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
    const waiting = pending.get(event.data.id);
    if (!waiting) return;
    if (event.data.type === 'progress') waiting.progress?.(event.data);
    else {
      pending.delete(event.data.id);
      waiting.resolve(event.data);
    }
  };
  return worker;
}

type Ask = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

function ask(request: Ask, progress?: (r: WorkerResponse) => void): Promise<WorkerResponse> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, progress ? { resolve, progress } : { resolve });
    getWorker().postMessage({ ...request, id });
  });
}

// ---- Helpers ----
const show = (text: string) => (maskToggle.checked ? maskIdentifiers(text) : text);

function setStatus(text: string, tone: '' | 'ok' | 'bad' = ''): void {
  status.textContent = text;
  status.className = tone;
}

function releaseBlobs(): void {
  for (const url of blobUrls) URL.revokeObjectURL(url);
  blobUrls = [];
}

const context: RenderContext = {
  show,
  keyLabel(kid) {
    const fingerprint =
      fingerprints.get(kid) ?? (fingerprints.size === 1 ? [...fingerprints.values()][0] : undefined);
    const name = kid === null ? 'the key given' : `the key listed as "${kid}"`;
    return fingerprint ? `${name} (fingerprint ${fingerprint})` : name;
  },
  blobUrl(bytes, type) {
    const url = URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type }));
    blobUrls.push(url);
    return url;
  },
  get hasKeys() {
    return keys !== undefined;
  },
};

// ---- Keys ----
async function applyKeys(): Promise<boolean> {
  const text = keysField.value;
  if (text.trim() === '') return true;
  try {
    const parsed = parseKeyText(text, 'the Keys field');
    keys = parsed;
    fingerprints = new Map();
    for (const entry of parsed.entries) fingerprints.set(entry.kid ?? null, await keyFingerprint(entry.key));
    // The key text leaves the field at once: from here on it is shown only as fingerprints.
    keysField.value = '';
    renderKeyList(parsed.notices);
    return true;
  } catch (error) {
    keyList.replaceChildren(h('p', { class: 'bad' }, error instanceof Error ? error.message : String(error)));
    return false;
  }
}

function renderKeyList(notices: string[] = []): void {
  if (!keys) {
    keyList.replaceChildren(h('p', {}, 'No keys in memory.'));
    return;
  }
  keyList.replaceChildren(
    h('p', {}, `${keys.entries.length} key${keys.entries.length === 1 ? '' : 's'} in memory:`),
    h(
      'ul',
      { id: 'fingerprints' },
      ...keys.entries.map((entry) =>
        h(
          'li',
          {},
          entry.kid === undefined ? 'key' : `kid "${entry.kid}"`,
          ' fingerprint ',
          h('span', { class: 'mono' }, fingerprints.get(entry.kid ?? null) ?? '?'),
        ),
      ),
    ),
    ...notices.map((notice) => h('p', {}, notice)),
  );
}

async function forgetKeys(): Promise<void> {
  keys = undefined;
  fingerprints = new Map();
  keysField.value = '';
  releaseBlobs();
  view = undefined;
  result.hidden = true;
  resultBody.replaceChildren();
  renderKeyList();
  if (worker) await ask({ type: 'forget' });
  setStatus('Keys forgotten; decrypted results cleared.');
}

// ---- Inspect ----
async function run(source: { text: string } | { file: Blob; name: string }): Promise<void> {
  setStatus('Working…');
  if (!(await applyKeys())) {
    setStatus('The keys could not be read; see the Keys field.', 'bad');
    return;
  }
  setStatus('text' in source ? 'Reading the input…' : `Reading ${source.name}…`);
  const started = performance.now();
  const response = await ask(
    'text' in source
      ? { type: 'analyze', text: source.text, keys }
      : { type: 'analyze', file: source.file, keys },
    (progress) => {
      if (progress.type === 'progress')
        setStatus(`Decrypting the HAR file: ${progress.done} of ${progress.total} entries…`);
    },
  );
  releaseBlobs();
  if (response.type === 'error') {
    view = undefined;
    result.hidden = true;
    setStatus(`${response.message} (${response.code})`, 'bad');
    return;
  }
  if (response.type === 'envelope')
    view = { kind: 'envelope', title: response.title, inspection: response.inspection };
  else if (response.type === 'har') view = { kind: 'har', entries: response.entries, rows: response.rows };
  render();
  const elapsed = Math.round(performance.now() - started);
  if (view?.kind === 'har') {
    const table = document.getElementById('har-table');
    table?.setAttribute('data-complete', 'true');
    setStatus(`HAR file read: ${view.entries} entries in ${elapsed} ms.`, 'ok');
  } else setStatus('Done.', 'ok');
}

// ---- Rendering ----
function render(): void {
  releaseBlobs();
  if (!view) return;
  result.hidden = false;
  if (view.kind === 'envelope') {
    resultBody.replaceChildren(h('h3', {}, show(view.title)), renderInspection(view.inspection, context));
    return;
  }
  resultBody.replaceChildren(
    harSummary(view.rows, view.entries),
    harControls(),
    h('div', { id: 'har-rows' }),
  );
  renderRows();
  if (view.detail) resultBody.append(entryDetail(view.detail.row, view.detail.sides));
}

function harSummary(rows: RowSummary[], entries: number): HTMLElement {
  const sides = rows.flatMap((row) => [row.request, row.response]);
  const count = (kind: string) => sides.filter((side) => side.kind === kind).length;
  return h(
    'p',
    { id: 'har-summary' },
    `HAR: ${entries} entries; ${count('decrypted')} bodies decrypted, ${count('failed')} failed, ${count('encrypted')} encrypted without a key, ${count('plain')} plain.`,
  );
}

function harControls(): HTMLElement {
  const url = h('input', { id: 'filter-url', type: 'search', spellcheck: 'false', autocomplete: 'off' });
  url.value = filters.url;
  const statusFilter = h('input', {
    id: 'filter-status',
    type: 'text',
    autocomplete: 'off',
    placeholder: 'e.g. 200 or 4xx',
  });
  statusFilter.value = filters.status;
  const outcome = h(
    'select',
    { id: 'filter-outcome' },
    ...[
      ['any', 'any'],
      ['decrypted', 'decrypted'],
      ['failed', 'failed'],
      ['encrypted', 'encrypted (any)'],
      ['plain', 'plain'],
      ['none', 'no body'],
    ].map(([value, label]) => h('option', { value, selected: value === filters.outcome }, label)),
  );
  url.addEventListener('input', () => {
    filters.url = url.value;
    renderRows();
  });
  statusFilter.addEventListener('input', () => {
    filters.status = statusFilter.value;
    renderRows();
  });
  outcome.addEventListener('change', () => {
    filters.outcome = outcome.value;
    renderRows();
  });
  const exportDecrypted = h('button', { type: 'button', id: 'export-decrypted' }, 'Export decrypted HAR');
  const exportRedacted = h('button', { type: 'button', id: 'export-redacted' }, 'Export redacted HAR');
  exportDecrypted.addEventListener('click', () => void exportHar('decrypted'));
  exportRedacted.addEventListener('click', () => void exportHar('redacted'));
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'filters' },
      h('div', { class: 'field' }, h('label', { for: 'filter-url' }, 'Filter by URL'), url),
      h('div', { class: 'field' }, h('label', { for: 'filter-status' }, 'Filter by status'), statusFilter),
      h('div', { class: 'field' }, h('label', { for: 'filter-outcome' }, 'Filter by outcome'), outcome),
    ),
    h('div', { class: 'row' }, exportDecrypted, exportRedacted),
  );
}

function renderRows(): void {
  if (view?.kind !== 'har') return;
  const container = document.getElementById('har-rows');
  container?.replaceChildren(
    harTable(filterRows(view.rows, filters), show, (entry) => void openEntry(entry)),
  );
}

function entryDetail(row: RowSummary, sides: SideDetail[]): HTMLElement {
  const heading = h(
    'h3',
    { id: 'entry-heading', tabindex: '-1' },
    `Entry ${row.entry}: ${row.method} ${show(row.path)}`,
  );
  const section = h(
    'section',
    { class: 'entry-detail', 'aria-labelledby': 'entry-heading' },
    heading,
    facts([
      ['Status', String(row.status ?? 'none')],
      ['Request', show(outcomeText(row.request))],
      ['Response', show(outcomeText(row.response))],
    ]),
  );
  for (const side of sides) {
    const title = side.side === 'request' ? 'Request body' : 'Response body';
    section.append(h('h4', {}, title));
    if (side.inspection)
      section.append(renderInspection(side.inspection, context, `entry-${row.entry}-${side.side}`));
    else if (side.plain !== undefined)
      section.append(
        h('pre', {}, show(side.plain)),
        ...(side.truncated ? [h('p', {}, '(cut to the first 64 KiB)')] : []),
      );
    else if (side.error) section.append(h('p', { class: 'bad' }, side.error));
    else section.append(h('p', {}, 'No body.'));
  }
  return section;
}

async function openEntry(entry: number): Promise<void> {
  if (view?.kind !== 'har') return;
  const response = await ask({ type: 'entry', entry, keys });
  if (response.type === 'error') {
    setStatus(response.message, 'bad');
    return;
  }
  if (response.type !== 'entry' || view?.kind !== 'har') return;
  view.detail = { row: response.row, sides: response.sides };
  document.querySelector('.entry-detail')?.remove();
  resultBody.append(entryDetail(response.row, response.sides));
  document.getElementById('entry-heading')?.focus();
}

async function exportHar(which: 'decrypted' | 'redacted'): Promise<void> {
  const response = await ask({ type: 'export', which, mask: maskToggle.checked });
  if (response.type !== 'export') {
    setStatus(response.type === 'error' ? response.message : 'The export failed.', 'bad');
    return;
  }
  const url = URL.createObjectURL(new Blob([response.json], { type: 'application/json' }));
  blobUrls.push(url);
  const link = h('a', { href: url, download: `${which}.har` });
  document.body.append(link);
  link.click();
  link.remove();
  setStatus(`Exported the ${which} HAR${maskToggle.checked ? ' with identifiers masked' : ''}.`, 'ok');
}

// ---- Webhook check (small; runs on the main thread) ----
async function checkWebhook(): Promise<void> {
  const out = byId<HTMLDivElement>('webhook-result');
  const check = await checkWebhookSignature(
    byId<HTMLTextAreaElement>('webhook-body').value,
    byId<HTMLInputElement>('webhook-header').value,
    byId<HTMLInputElement>('webhook-key').value,
  );
  out.replaceChildren(
    h(
      'p',
      { class: check.verified ? 'ok' : 'bad' },
      check.verified ? 'Signature verifies.' : 'Signature does not verify.',
    ),
    facts([
      [
        'Timestamp',
        check.timestamp === undefined ? 'missing' : new Date(check.timestamp * 1000).toISOString(),
      ],
      [
        'Clock skew',
        check.skewSeconds === undefined
          ? 'unknown'
          : `${check.skewSeconds} s (${check.fresh ? 'within' : 'outside'} the 180 s window)`,
      ],
    ]),
    h('ul', { class: 'causes' }, ...check.findings.map((finding) => h('li', {}, finding))),
  );
}

// ---- Wiring ----
byId('inspect').addEventListener('click', () => void run({ text: input.value }));
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void run({ text: input.value });
});
fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) void run({ file, name: file.name });
});
byId('use-keys').addEventListener('click', () => void applyKeys().then((ok) => ok && view && render()));
byId('forget-keys').addEventListener('click', () => void forgetKeys());
maskToggle.addEventListener('change', render);
byId('webhook-check').addEventListener('click', () => void checkWebhook());
document.addEventListener('dragover', (event) => event.preventDefault());
document.addEventListener('drop', (event) => {
  event.preventDefault();
  const file = event.dataTransfer?.files[0];
  if (file) void run({ file, name: file.name });
});
renderKeyList();
