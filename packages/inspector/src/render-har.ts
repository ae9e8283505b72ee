import { decryptedLabel } from '@jwe-transport/inspect-core';
import { h } from './dom.js';
import type { OutcomeSummary, RowSummary } from './protocol.js';

export interface HarFilters {
  url: string;
  status: string;
  outcome: string;
}

/** The words a table cell shows; the filter matches the same words. */
export function outcomeText(outcome: OutcomeSummary): string {
  switch (outcome.kind) {
    case 'none':
      return 'no body';
    case 'plain':
      return 'plain';
    case 'encrypted':
      return 'encrypted (no key given)';
    case 'decrypted': {
      const content =
        outcome.content.type === 'file' || outcome.content.type === 'binary'
          ? `, ${outcome.content.type} ${outcome.content.mediaType ?? ''} ${outcome.content.size} bytes`
          : '';
      return `${decryptedLabel(outcome)}${content}`;
    }
    case 'failed':
      return `failed: ${outcome.reason}`;
  }
}

function matchesStatus(status: number | null, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  if (wanted === '') return true;
  const text = status === null ? 'none' : String(status);
  if (/^[1-5]xx$/.test(wanted)) return text.startsWith(wanted[0]!);
  return text === wanted;
}

function matchesOutcome(row: RowSummary, filter: string): boolean {
  if (filter === '' || filter === 'any') return true;
  const kinds = [row.request.kind, row.response.kind];
  if (filter === 'encrypted') return kinds.some((kind) => kind !== 'none' && kind !== 'plain');
  return kinds.includes(filter as OutcomeSummary['kind']);
}

export function filterRows(rows: RowSummary[], filters: HarFilters): RowSummary[] {
  const url = filters.url.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (url === '' || row.path.toLowerCase().includes(url)) &&
      matchesStatus(row.status, filters.status) &&
      matchesOutcome(row, filters.outcome),
  );
}

function outcomeCell(outcome: OutcomeSummary, show: (text: string) => string): HTMLTableCellElement {
  if (outcome.kind === 'decrypted' && outcome.warning !== null) {
    // Opened, but under another key than its kid names: shown as a warning, with the reason.
    return h(
      'td',
      { class: 'warn', 'data-outcome': outcome.kind, title: show(outcome.warning) },
      show(outcomeText(outcome)),
      h('br'),
      h('span', { class: 'kid-warning' }, show(outcome.warning)),
    );
  }
  const className = outcome.kind === 'decrypted' ? 'ok' : outcome.kind === 'failed' ? 'bad' : '';
  return h('td', { class: className, 'data-outcome': outcome.kind }, show(outcomeText(outcome)));
}

/** The table body for the rows that pass the filters; each URL is a button that opens the entry. */
export function harTable(
  rows: RowSummary[],
  show: (text: string) => string,
  open: (entry: number) => void,
): HTMLTableElement {
  const body = h('tbody');
  for (const row of rows) {
    const button = h(
      'button',
      { type: 'button', 'aria-label': `Open entry ${row.entry}: ${row.method} ${show(row.path)}` },
      show(row.path),
    );
    button.addEventListener('click', () => open(row.entry));
    body.append(
      h(
        'tr',
        { 'data-entry': String(row.entry) },
        h('td', {}, row.entry),
        h('td', {}, row.method),
        h('td', { class: 'url' }, button),
        h('td', {}, row.status ?? ''),
        outcomeCell(row.request, show),
        outcomeCell(row.response, show),
      ),
    );
  }
  return h(
    'table',
    { id: 'har-table' },
    h('caption', {}, `${rows.length} entries shown`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['#', 'Method', 'URL (without query)', 'Status', 'Request', 'Response'].map((name) =>
          h('th', { scope: 'col' }, name),
        ),
      ),
    ),
    body,
  );
}
