import type { Exchange, ExchangeSide, OpenedView } from './exchange.js';

/** The table's words for one side, shaped as the inspector's HAR rows are (inspector/src/protocol.ts). */
function outcomeOf(side: ExchangeSide): Record<string, unknown> {
  if (side.failure)
    return {
      kind: 'failed',
      code: side.failure.code,
      reason: `${side.failure.code}: ${side.failure.message}`,
    };
  if (side.sealed && side.opened) {
    return {
      kind: 'decrypted',
      kid: side.kid ?? null,
      keyKid: side.kid ?? null,
      kidMismatch: false,
      warning: null,
      note: null,
      content: contentOf(side.opened),
    };
  }
  if (side.sealed) return { kind: 'encrypted' };
  return side.wire === undefined && side.opened === undefined ? { kind: 'none' } : { kind: 'plain' };
}

function contentOf(view: OpenedView): Record<string, unknown> {
  switch (view.kind) {
    case 'json':
    case 'text':
      return { type: view.kind, size: Buffer.byteLength(view.text) };
    case 'empty':
      return { type: 'empty', size: 0 };
    case 'file':
      return { type: 'file', size: view.size, mediaType: view.type };
  }
}

function sideOf(side: ExchangeSide): Record<string, unknown> {
  return {
    ...(side.opened === undefined ? {} : { opened: side.opened }),
    ...(side.failure === undefined ? {} : { failure: side.failure }),
    ...(side.note === undefined ? {} : { note: side.note }),
  };
}

/** One exchange for the live view (inspector/src/live-protocol.ts): its table row and opened bodies, never a key. */
export function liveExchange(exchange: Exchange): Record<string, unknown> {
  const url = new URL(exchange.url);
  return {
    row: {
      entry: exchange.id,
      method: exchange.method,
      url: exchange.url,
      path: `${url.origin}${url.pathname}`,
      status: exchange.status ?? null,
      request: outcomeOf(exchange.request),
      response: outcomeOf(exchange.response),
    },
    mode: exchange.mode,
    outcome: exchange.outcome,
    ...(exchange.code === undefined ? {} : { code: exchange.code }),
    durationMs: exchange.durationMs,
    request: sideOf(exchange.request),
    response: sideOf(exchange.response),
  };
}
