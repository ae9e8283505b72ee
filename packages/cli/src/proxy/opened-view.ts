import { classifyPlaintext } from '@jwe-transport/inspect-core';
import type { OpenedView } from './exchange.js';

/** A plaintext as people see it: JSON and text as they are, files and other bytes described. */
export async function viewOf(plaintext: Uint8Array): Promise<OpenedView> {
  const payload = await classifyPlaintext(plaintext);
  switch (payload.type) {
    case 'json':
      return { kind: 'json', text: Buffer.from(payload.bytes).toString('utf8') };
    case 'text':
      return { kind: 'text', text: payload.text };
    case 'empty':
      return { kind: 'empty' };
    case 'file':
    case 'binary':
      return {
        kind: 'file',
        type: payload.media.mediaType,
        size: payload.bytes.length,
        sha256: payload.sha256,
      };
  }
}
