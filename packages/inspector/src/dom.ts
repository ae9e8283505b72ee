/** Tiny DOM builder. Text always goes in as text nodes, never as HTML, so captured data cannot inject markup. */
export type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  return element;
}

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page is missing #${id}.`);
  return element as T;
}

/** A definition list of facts; rows whose value is undefined are left out. */
export function facts(rows: Array<[string, Child]>): HTMLDListElement {
  const list = h('dl', { class: 'facts' });
  for (const [name, value] of rows) {
    if (value === undefined) continue;
    list.append(h('dt', {}, name), h('dd', {}, value));
  }
  return list;
}
