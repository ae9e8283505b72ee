import type { Inspection, Payload } from '@jwe-transport/inspect-core';
import { formatSize, headerSourceNote } from '@jwe-transport/inspect-core/internal';
import { type Child, facts, h } from './dom.js';
import { jsonTree } from './json-tree.js';

export interface RenderContext {
  /** Applies the "mask identifiers" toggle to text shown on screen. */
  show(text: string): string;
  /** How a key is named on screen: its kid and fingerprint, never the key. */
  keyLabel(kid: string | null): string;
  /** A blob: URL for bytes; the page revokes them when the view changes. */
  blobUrl(bytes: Uint8Array, type: string): string;
  hasKeys: boolean;
}

function list(items: string[], show: (text: string) => string): HTMLUListElement {
  return h('ul', { class: 'causes' }, ...items.map((item) => h('li', {}, show(item))));
}

function fileView(
  payload: Extract<Payload, { type: 'file' | 'binary' }>,
  ctx: RenderContext,
  name: string,
): HTMLElement {
  const { media } = payload;
  const url = ctx.blobUrl(payload.bytes, media.mediaType);
  const filename = `${name}.${media.extension}`;
  let preview: Child;
  if (media.mediaType.startsWith('audio/'))
    preview = h('audio', { controls: true, src: url, 'aria-label': `Play the ${media.description}` });
  else if (media.mediaType.startsWith('video/'))
    preview = h('video', { controls: true, src: url, 'aria-label': `Play the ${media.description}` });
  else if (media.mediaType.startsWith('image/'))
    preview = h('img', { src: url, alt: `The decrypted ${media.description}` });
  else if (media.mediaType === 'application/pdf')
    preview = h('iframe', { src: url, title: 'The decrypted PDF document' });
  return h(
    'div',
    { class: 'file' },
    h('p', {}, payload.type === 'file' ? 'File payload ({"file": base64})' : 'Binary plaintext'),
    facts([
      ['Detected type', `${media.description} (${media.mediaType})`],
      ['Size', formatSize(payload.bytes.length)],
      ['SHA-256', h('span', { class: 'mono sha256' }, payload.sha256)],
    ]),
    h('p', {}, h('a', { class: 'button', href: url, download: filename }, `Download ${filename}`)),
    preview ? h('div', { class: 'preview' }, preview) : null,
  );
}

export function renderPayload(payload: Payload, ctx: RenderContext, name = 'payload'): HTMLElement {
  const section = h('div', { class: 'content' }, h('h4', {}, 'Content'));
  switch (payload.type) {
    case 'json':
      section.append(jsonTree(payload.value, ctx.show));
      break;
    case 'text':
      section.append(h('pre', {}, ctx.show(payload.text)));
      break;
    case 'empty':
      section.append(h('p', {}, '(empty plaintext)'));
      break;
    default:
      section.append(fileView(payload, ctx, name));
  }
  return section;
}

function verdict(inspection: Inspection, ctx: RenderContext): HTMLElement {
  const verification = inspection.report.verification;
  if (!verification)
    return h(
      'p',
      { class: 'warn verdict' },
      ctx.hasKeys ? 'Not verified.' : 'No key given: showing what the envelope says about itself.',
    );
  const key = ctx.keyLabel(verification.keyKid ?? null);
  if (verification.ok) {
    const source = verification.authenticatedAs as Parameters<typeof headerSourceNote>[0];
    const note = headerSourceNote(source);
    return h(
      'div',
      {},
      h('p', { class: 'ok verdict' }, `Opened: the tag verified with ${key}.`),
      note ? h('p', {}, note) : null,
    );
  }
  if (verification.authenticatedAs)
    return h(
      'p',
      { class: 'warn verdict' },
      `Did not open by the standard, but it is authentic: ${verification.authenticatedAs}, with ${key}.`,
    );
  return h('p', { class: 'bad verdict' }, 'Did not open: no key given authenticated it.');
}

/** One envelope: verdict, header, kid, IV, tag, sizes, diagnostics, the diagnosis, and the content. */
export function renderInspection(inspection: Inspection, ctx: RenderContext, name = 'payload'): HTMLElement {
  const { report } = inspection;
  const part = (partName: string) => report.parts.find((candidate) => candidate.name === partName);
  const sized = (partName: string) => {
    const found = part(partName);
    return found ? `${found.bytes ?? '?'} bytes (${found.chars} characters)` : undefined;
  };
  const header = report.protectedHeader;
  const root = h(
    'div',
    { class: 'inspection' },
    verdict(inspection, ctx),
    facts([
      ['Serialization', report.serialization],
      [
        'Protected header',
        header.present
          ? `${JSON.stringify(header.decoded) ?? '(undecodable)'}${header.encoding && header.encoding !== 'other' ? ` (${header.encoding} encoding)` : ''}`
          : 'missing',
      ],
      ['Header (all)', h('span', { class: 'mono' }, JSON.stringify(report.header))],
      ['kid', report.kid === null ? 'none' : `"${report.kid}" (selects the key; not authenticated)`],
      ['IV', sized('iv')],
      ['Tag', sized('tag')],
      ['Ciphertext', sized('ciphertext')],
      ['AAD', sized('aad')],
    ]),
  );
  root.append(h('h4', {}, 'Diagnostics'));
  if (report.diagnostics.length === 0)
    root.append(h('p', {}, 'None: the envelope has the form the service uses.'));
  else
    root.append(
      h(
        'ul',
        { class: 'causes' },
        ...report.diagnostics.map((d) =>
          h(
            'li',
            {},
            h(
              'span',
              { class: d.severity === 'error' ? 'bad' : d.severity === 'warning' ? 'warn' : '' },
              `${d.severity} ${d.code}`,
            ),
            `: ${d.message}`,
          ),
        ),
      ),
    );
  const verification = report.verification;
  if (verification) {
    if (verification.findings.length > 0)
      root.append(h('h4', {}, 'Findings'), list(verification.findings, ctx.show));
    if (verification.ruledOut.length > 0)
      root.append(h('h4', {}, 'Ruled out'), list(verification.ruledOut, ctx.show));
    if (verification.remaining.length > 0)
      root.append(h('h4', {}, 'Still possible'), list(verification.remaining, ctx.show));
  }
  if (inspection.payload) root.append(renderPayload(inspection.payload, ctx, name));
  return root;
}
