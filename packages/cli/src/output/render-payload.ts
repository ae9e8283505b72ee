import type { Payload } from '@jwe-transport/inspect-core';
import { formatSize } from './format.js';
import type { Style } from './style.js';

/** A payload as people read it: JSON pretty-printed, text as is, files and binaries described. */
export function renderPayload(payload: Payload, style: Style, suggestOut: boolean): string {
  const hint = suggestOut ? style.dim('\n  (pass --out PATH to save the bytes)') : '';
  switch (payload.type) {
    case 'json':
      return `${JSON.stringify(payload.value, null, 2)}\n`;
    case 'text':
      return payload.text.endsWith('\n') ? payload.text : `${payload.text}\n`;
    case 'empty':
      return `${style.dim('(empty plaintext)')}\n`;
    case 'file':
      return (
        `${style.bold('file payload')} {"file": base64}: ${payload.media.description} (${payload.media.mediaType}), ` +
        `${formatSize(payload.bytes.length)}, sha256 ${payload.sha256}${hint}\n`
      );
    case 'binary':
      return (
        `${style.bold('binary plaintext')}: ${payload.media.description} (${payload.media.mediaType}), ` +
        `${formatSize(payload.bytes.length)}, sha256 ${payload.sha256}${hint}\n`
      );
  }
}
