import { ITEM_STATUSES, type ItemStatus, isOneOf } from './vocabulary.js';

/** One item of `data.output` (spec 2.9 and docs/wire-format.md, "Step 4: results"). */
export interface ResultItem {
  template_id: string;
  /** Base64 of the UTF-8 text of the document. */
  value?: string;
  /** Whether the decoded value is JSON, markdown or a transcript. */
  type?: string;
  name?: string;
  status?: ItemStatus | (string & {});
  errors?: unknown[];
  warnings?: unknown[];
}

/** The second documented shape: `data.output.fhir` holds base64; missing means not complete. */
export interface FhirOutput {
  fhir?: string;
  [member: string]: unknown;
}

/** Spec 2.9: a session result; members other than `data.output` are not documented. */
export interface SessionResult {
  data?: {
    output?: ResultItem[] | FhirOutput;
    [member: string]: unknown;
  };
  [member: string]: unknown;
}

export function isItemStatus(value: unknown): value is ItemStatus {
  return isOneOf(ITEM_STATUSES, value);
}
