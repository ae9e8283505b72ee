import { maskIdentifiers } from '@jwe-transport/inspect-core';
import type { Style } from '../output/style.js';
import type { Exchange, ExchangeSide, OpenedView } from './exchange.js';

export interface LineOptions {
  style: Style;
  /** `--insecure`: said on every line, so nobody forgets the upstream's certificate is not checked. */
  insecure: boolean;
  /** Hide identifiers (Aadhaar-like numbers, phone numbers, e-mail addresses) in opened bodies. */
  mask: boolean;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  if (size < 1024 ** 3) return `${(size / 1024 ** 2).toFixed(1)} MiB`;
  return `${(size / 1024 ** 3).toFixed(2)} GiB`;
}

function sizes(label: string, side: ExchangeSide): string | undefined {
  const plain = side.plainSize;
  const wire = side.wire?.size;
  if (side.sealed && wire !== undefined) {
    return plain === undefined
      ? `${label} sealed ${formatBytes(wire)}`
      : `${label} ${formatBytes(plain)} (sealed ${formatBytes(wire)})`;
  }
  const size = plain ?? wire;
  return size === undefined || size === 0 ? undefined : `${label} ${formatBytes(size)}`;
}

const clock = (date: Date) => date.toISOString().slice(11, 19);

/** One line per exchange: time, method, path, status, outcome (with the code), kid, sizes, duration. */
export function exchangeLine(exchange: Exchange, { style, insecure }: LineOptions): string {
  const outcome =
    exchange.outcome === 'opened'
      ? style.green('opened')
      : exchange.outcome === 'plain'
        ? style.dim('plain')
        : exchange.outcome === 'unopened'
          ? style.yellow('not opened (too large to copy)')
          : exchange.outcome === 'refused'
            ? style.yellow(`refused ${exchange.code ?? ''}`.trim())
            : style.red(`FAILED ${exchange.code ?? ''}`.trim());
  const kid = exchange.request.kid ?? exchange.response.kid;
  const status = exchange.status === undefined ? '---' : String(exchange.status);
  const parts = [
    style.dim(clock(exchange.started)),
    insecure ? style.red('[INSECURE TLS]') : undefined,
    `${exchange.method} ${exchange.path.length > 100 ? `${exchange.path.slice(0, 99)}…` : exchange.path}`,
    (exchange.status ?? 500) >= 400 ? style.yellow(status) : style.bold(status),
    outcome,
    kid === undefined ? undefined : `kid ${kid}`,
    sizes('sent', exchange.request),
    sizes('got', exchange.response),
    style.dim(`${Math.round(exchange.durationMs)} ms`),
  ];
  return parts.filter((part) => part !== undefined).join('  ');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

export function viewText(view: OpenedView, mask: boolean): string {
  const masked = (text: string) => (mask ? maskIdentifiers(text) : text);
  switch (view.kind) {
    case 'json': {
      let text = view.text;
      try {
        text = JSON.stringify(JSON.parse(view.text), null, 2);
      } catch {}
      return masked(text);
    }
    case 'text':
      return masked(view.text);
    case 'empty':
      return '(empty)';
    case 'file':
      return `file${view.name === undefined ? '' : ` ${JSON.stringify(masked(view.name))}`}: ${view.type}, ${view.size.toLocaleString('en-US')} bytes, sha256 ${view.sha256}`;
  }
}

function sideText(label: string, side: ExchangeSide, mask: boolean, style: Style): string | undefined {
  const lines: string[] = [];
  if (side.opened)
    lines.push(
      `${style.cyan(label)}${side.sealed ? style.dim(' (opened)') : ''}`,
      indent(viewText(side.opened, mask)),
    );
  if (side.failure) lines.push(`${style.red(`${label} ${side.failure.code}`)}: ${side.failure.message}`);
  if (side.note) lines.push(`${style.yellow(label)}: ${side.note}`);
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** `--verbose`: the opened bodies under the line, JSON pretty-printed, files described, identifiers masked. */
export function verboseBlock(exchange: Exchange, { style, mask }: LineOptions): string | undefined {
  const blocks = [
    sideText('request', exchange.request, mask, style),
    sideText('answer', exchange.response, mask, style),
  ].filter((block) => block !== undefined);
  return blocks.length === 0 ? undefined : indent(blocks.join('\n'));
}
