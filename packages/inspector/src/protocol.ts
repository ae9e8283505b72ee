import type { BodyOutcome, HarRow, Inspection, KeySet } from '@jwe-transport/inspect-core';

/** What the page asks its worker; `id` pairs each answer with its question. */
export type WorkerRequest =
  | { id: number; type: 'analyze'; text?: string; file?: Blob; keys: KeySet | undefined }
  | { id: number; type: 'entry'; entry: number; keys: KeySet | undefined }
  | { id: number; type: 'export'; which: 'decrypted' | 'redacted'; mask: boolean }
  | { id: number; type: 'forget' };

/** A body outcome without its plaintext: the table needs only the kind of content and its size. */
export type OutcomeSummary =
  | Exclude<BodyOutcome, { kind: 'decrypted' }>
  | (Omit<Extract<BodyOutcome, { kind: 'decrypted' }>, 'payload'> & {
      content: { type: string; size: number; mediaType?: string };
    });

export type RowSummary = Omit<HarRow, 'request' | 'response'> & {
  request: OutcomeSummary;
  response: OutcomeSummary;
};

export interface SideDetail {
  side: 'request' | 'response';
  /** Present for envelopes: the full diagnosis, with the content when it opened. */
  inspection?: Inspection;
  /** Present for plain bodies (cut to a readable length). */
  plain?: string;
  truncated?: boolean;
  error?: string;
}

export type WorkerResponse =
  | { id: number; type: 'progress'; done: number; total: number }
  | { id: number; type: 'envelope'; title: string; inspection: Inspection }
  | { id: number; type: 'har'; entries: number; rows: RowSummary[] }
  | { id: number; type: 'entry'; row: RowSummary; sides: SideDetail[] }
  | { id: number; type: 'export'; json: string }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; code: string; message: string };
