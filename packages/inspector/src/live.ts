// The live view `jwe-transport proxy --ui` serves on its own port: the exchanges arrive as
// server-sent events from the same origin, and are shown with the inspector's own table and
// JSON tree (render-har.ts, json-tree.ts), so the two pages read the same way.
import { maskIdentifiers } from '@jwe-transport/inspect-core';
import { byId, facts, h } from './dom.js';
import { jsonTree } from './json-tree.js';
import type { LiveBody, LiveExchange, LiveSide } from './live-protocol.js';
import { filterRows, harTable } from './render-har.js';

/** Where the proxy serves this page's events, relative to the page (`/__jwe-proxy/`). */
const EVENTS = 'events';

const exchanges = new Map<number, LiveExchange>();
const maskToggle = byId<HTMLInputElement>('mask');
const filterUrl = byId<HTMLInputElement>('filter-url');
const filterStatus = byId<HTMLInputElement>('filter-status');
const filterOutcome = byId<HTMLSelectElement>('filter-outcome');
const status = byId<HTMLParagraphElement>('status');
const table = byId<HTMLDivElement>('table');
const detail = byId<HTMLElement>('detail');
const detailBody = byId<HTMLDivElement>('detail-body');
let opened: number | undefined;

const show = (text: string) => (maskToggle.checked ? maskIdentifiers(text) : text);

function bodyView(body: LiveBody): HTMLElement {
  switch (body.kind) {
    case 'json': {
      try {
        return jsonTree(JSON.parse(body.text), show);
      } catch {
        return h('pre', {}, show(body.text));
      }
    }
    case 'text':
      return h('pre', {}, show(body.text));
    case 'empty':
      return h('p', {}, '(empty)');
    case 'file':
      return facts([
        ['File name', body.name === undefined ? undefined : show(body.name)],
        ['Type', body.type],
        ['Size', `${body.size.toLocaleString('en-US')} bytes`],
        ['SHA-256', h('span', { class: 'mono sha256' }, body.sha256)],
      ]);
  }
}

function sideView(title: string, side: LiveSide): HTMLElement {
  const section = h('section', { class: 'side' }, h('h3', {}, title));
  if (side.opened) section.append(bodyView(side.opened));
  if (side.failure)
    section.append(h('p', { class: 'bad' }, `${side.failure.code}: ${show(side.failure.message)}`));
  if (side.note) section.append(h('p', {}, side.note));
  if (!side.opened && !side.failure && !side.note) section.append(h('p', {}, 'no body'));
  return section;
}

function renderDetail(): void {
  const exchange = opened === undefined ? undefined : exchanges.get(opened);
  detail.hidden = exchange === undefined;
  detailBody.replaceChildren();
  if (!exchange) return;
  const { row } = exchange;
  detailBody.append(
    h(
      'div',
      { class: 'entry-detail' },
      facts([
        ['Exchange', `#${row.entry} ${row.method} ${show(row.path)}`],
        ['Status', row.status === null ? 'none' : String(row.status)],
        ['Outcome', `${exchange.outcome}${exchange.code === undefined ? '' : ` ${exchange.code}`}`],
        ['Mode', exchange.mode === 'seal' ? 'sealing' : 'watching'],
        ['Time', `${Math.round(exchange.durationMs)} ms`],
      ]),
      sideView('Request, opened', exchange.request),
      sideView('Answer, opened', exchange.response),
    ),
  );
}

function render(): void {
  const rows = [...exchanges.values()].map((exchange) => exchange.row);
  const shown = filterRows(rows, {
    url: filterUrl.value,
    status: filterStatus.value,
    outcome: filterOutcome.value,
  });
  table.replaceChildren(
    harTable(shown, show, (entry) => {
      opened = entry;
      renderDetail();
      byId('detail-heading').focus();
    }),
  );
  table.firstElementChild?.setAttribute('data-count', String(rows.length));
  renderDetail();
}

const source = new EventSource(EVENTS);
source.addEventListener('open', () => {
  status.textContent = 'Connected: exchanges appear here as they happen.';
});
source.addEventListener('error', () => {
  status.textContent = 'Not connected to the proxy (stopped?). The exchanges so far stay on this page.';
});
source.addEventListener('exchange', (event) => {
  const exchange = JSON.parse((event as MessageEvent<string>).data) as LiveExchange;
  exchanges.set(exchange.row.entry, exchange);
  render();
});
for (const control of [maskToggle, filterUrl, filterStatus, filterOutcome]) {
  control.addEventListener('input', render);
  control.addEventListener('change', render);
}
render();
