import { h } from './dom.js';

/**
 * A JSON value as nested <details> elements: keyboard-usable (Enter/Space on a summary), readable
 * by screen readers, and with no script per node. The first two levels start open.
 */
export function jsonTree(
  value: unknown,
  show: (text: string) => string,
  name = 'plaintext',
  depth = 0,
): HTMLElement {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value as Record<string, unknown>);
    const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const details = h(
      'details',
      { open: depth < 2 },
      h('summary', {}, h('span', { class: 'key' }, show(name)), ` ${label}`),
    );
    for (const [key, item] of entries) details.append(jsonTree(item, show, key, depth + 1));
    return depth === 0 ? h('div', { class: 'tree' }, details) : details;
  }
  const className = typeof value === 'string' ? 'str' : typeof value === 'number' ? 'num' : '';
  const text = typeof value === 'string' ? JSON.stringify(show(value)) : show(String(value));
  const leaf = h(
    'div',
    { class: 'leaf' },
    h('span', { class: 'key' }, show(name)),
    ': ',
    h('span', { class: className }, text),
  );
  return depth === 0 ? h('div', { class: 'tree' }, leaf) : leaf;
}
