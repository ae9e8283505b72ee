import type { BodyCapture } from './capture.js';

/** A body opened for people: JSON text, a file's description, or why it could not be opened. */
export type OpenedView =
  | { kind: 'json'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'file'; name?: string | undefined; type: string; size: number; sha256: string }
  | { kind: 'empty' };

/** One side of an exchange: what travelled (possibly sealed), and what it was once opened. */
export interface ExchangeSide {
  headers: [string, string][];
  /** The bytes as they travelled between the proxy and the upstream. */
  wire: BodyCapture | undefined;
  /** True when `wire` is an envelope. */
  sealed: boolean;
  /** The content type the opened body has. */
  openedType?: string | undefined;
  opened?: OpenedView | undefined;
  /** Why the envelope was not opened (a stable code and a message), when it was not. */
  failure?: { code: string; message: string } | undefined;
  /** The kid the envelope named. */
  kid?: string | undefined;
  /** Why a body that passed was not opened (too large to copy), for people. */
  note?: string | undefined;
  /** Plaintext bytes (what the tool sent or got), when known. */
  plainSize?: number | undefined;
}

export type Outcome =
  /** Sealed and opened as expected. */
  | 'opened'
  /** Nothing to seal or open: a plain exchange the rules allow. */
  | 'plain'
  /** The upstream refused the call (4xx/5xx) and said why. */
  | 'refused'
  /** The proxy refused or could not complete the call (fail closed), or a copy did not open. */
  | 'failed'
  /** Watching: passed through untouched, too large to open on the side. */
  | 'unopened';

/** Everything one request-and-answer records, for the terminal line, the HAR and the live view. */
export interface Exchange {
  id: number;
  started: Date;
  method: string;
  /** The path and query as the tool sent them. */
  path: string;
  /** The full upstream URL. */
  url: string;
  mode: 'seal' | 'watch';
  status: number | undefined;
  statusText: string;
  outcome: Outcome;
  /** The stable error code behind a `refused` or `failed` outcome. */
  code: string | undefined;
  request: ExchangeSide;
  response: ExchangeSide;
  durationMs: number;
}
