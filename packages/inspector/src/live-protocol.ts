import type { RowSummary } from './protocol.js';

/** An opened body as `jwe-transport proxy` describes it: JSON or text as it is, a file by its facts. */
export type LiveBody =
  | { kind: 'json'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'file'; name?: string; type: string; size: number; sha256: string }
  | { kind: 'empty' };

export interface LiveSide {
  opened?: LiveBody;
  failure?: { code: string; message: string };
  note?: string;
}

/**
 * One exchange, as the proxy's live view receives it (a server-sent event named `exchange`): the
 * row the inspector's HAR table shows, and the opened bodies. Never a key.
 */
export interface LiveExchange {
  row: RowSummary;
  mode: 'seal' | 'watch';
  outcome: string;
  code?: string;
  durationMs: number;
  request: LiveSide;
  response: LiveSide;
}
