import type { ResultItem, SessionResult } from './result.js';
import { isItemStatus } from './result.js';
import type { ItemStatus } from './vocabulary.js';

/** How a document's decoded text is to be read. */
export type DocumentFormat = 'json' | 'markdown' | 'text';

/** One output document, decoded. */
export interface DecodedDocument {
  /** The template id, or `fhir` for the object shape of `data.output`. */
  templateId: string;
  name: string | undefined;
  /** The item's `type` as the service sent it. */
  type: string | undefined;
  format: DocumentFormat;
  status: ItemStatus;
  /** The UTF-8 text of the value, when it decoded. */
  text: string | undefined;
  /** The parsed value, for `format: 'json'` when it parsed. */
  json: unknown;
  /** The item's own `errors`, as sent. */
  errors: unknown[];
  /** The item's own `warnings`, as sent. */
  warnings: unknown[];
  /** What went wrong reading this item here (bad base64, not UTF-8, JSON that does not parse). */
  problems: string[];
}

export type ResultStatus = ItemStatus;

/** A session result turned into documents. */
export interface DecodedResult {
  /** False when `data.output` lacks expected content (spec 3): missing, empty, or without `fhir`. */
  complete: boolean;
  /** `success` when every document succeeded, `failure` when none did, else `partial_success`. */
  status: ResultStatus;
  /** Which documented shape `data.output` had. */
  shape: 'array' | 'fhir' | 'missing';
  documents: DecodedDocument[];
  /** Template ids that were expected (option `expectedTemplates`) but are absent. */
  missingTemplates: string[];
  /** Why the result is not complete, in words; empty when complete. */
  incompleteReasons: string[];
}

export interface DecodeOptions {
  /** The template ids that were requested; any that is absent makes the result incomplete. */
  expectedTemplates?: readonly string[];
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The `type` vocabulary is not fixed by the spec: read it by what it mentions. */
export function documentFormat(type: string | undefined, templateId: string): DocumentFormat {
  const word = (type ?? '').toLowerCase();
  if (word.includes('json') || word === 'fhir' || templateId === 'fhir') return 'json';
  if (word.includes('markdown') || word === 'md') return 'markdown';
  return 'text';
}

function base64ToBytes(value: string): Uint8Array | undefined {
  const compact = value.replace(/[\r\n]/g, '');
  if (!STRICT_BASE64.test(compact)) return undefined;
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

interface ReadValue {
  text: string | undefined;
  json: unknown;
  problems: string[];
}

function readValue(value: unknown, format: DocumentFormat): ReadValue {
  if (value === undefined || value === null || value === '') {
    return { text: undefined, json: undefined, problems: ['The item has no value.'] };
  }
  if (typeof value !== 'string') {
    return { text: undefined, json: undefined, problems: ['The item value is not a base64 string.'] };
  }
  const bytes = base64ToBytes(value);
  if (!bytes) return { text: undefined, json: undefined, problems: ['The item value is not valid base64.'] };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { text: undefined, json: undefined, problems: ['The decoded item value is not UTF-8 text.'] };
  }
  if (format !== 'json') return { text, json: undefined, problems: [] };
  try {
    return { text, json: JSON.parse(text), problems: [] };
  } catch {
    return {
      text,
      json: undefined,
      problems: ['The item says it is JSON, but its decoded text does not parse.'],
    };
  }
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function decodeItem(item: unknown, index: number): DecodedDocument {
  const record = (item !== null && typeof item === 'object' ? item : {}) as Partial<ResultItem>;
  const templateId = typeof record.template_id === 'string' ? record.template_id : `output[${index}]`;
  const type = typeof record.type === 'string' ? record.type : undefined;
  let format = documentFormat(type, templateId);
  let read = readValue(record.value, format);
  // Without a type, a value that is a JSON object or array is read as JSON (the EMR template's is).
  if (type === undefined && format === 'text' && read.text !== undefined && /^\s*[[{]/.test(read.text)) {
    const asJson = readValue(record.value, 'json');
    if (asJson.problems.length === 0) {
      format = 'json';
      read = asJson;
    }
  }
  const problems = [...read.problems];
  if (typeof record.template_id !== 'string') problems.unshift('The item has no template_id.');
  let status: ItemStatus;
  if (isItemStatus(record.status)) status = record.status;
  else {
    status = read.text === undefined ? 'failure' : 'success';
    if (record.status !== undefined) problems.push(`Unknown item status ${JSON.stringify(record.status)}.`);
  }
  // A document we could not read is not a success, whatever the service says.
  if (read.text === undefined && status === 'success') status = 'failure';
  else if (problems.length > 0 && status === 'success') status = 'partial_success';
  return {
    templateId,
    name: typeof record.name === 'string' ? record.name : undefined,
    type,
    format,
    status,
    text: read.text,
    json: read.json,
    errors: arrayOf(record.errors),
    warnings: arrayOf(record.warnings),
    problems,
  };
}

function fhirDocument(output: Record<string, unknown>): DecodedDocument {
  const read = readValue(output.fhir, 'json');
  return {
    templateId: 'fhir',
    name: undefined,
    type: 'fhir',
    format: 'json',
    status: read.text !== undefined && read.problems.length === 0 ? 'success' : 'failure',
    text: read.text,
    json: read.json,
    errors: arrayOf(output.errors),
    warnings: arrayOf(output.warnings),
    problems: read.problems,
  };
}

function overallStatus(documents: DecodedDocument[], complete: boolean): ResultStatus {
  if (documents.length === 0) return 'failure';
  if (documents.every((document) => document.status === 'failure')) return 'failure';
  if (complete && documents.every((document) => document.status === 'success')) return 'success';
  return 'partial_success';
}

/**
 * Turns a session result (spec 2.9) into documents: values decoded from base64 as UTF-8, JSON
 * parsed where the item's `type` says so, both documented shapes of `data.output` (array of items,
 * or an object with `fhir`), per-item errors and warnings kept. Never throws on a malformed result:
 * what could not be read is reported in `problems`, `complete` and `incompleteReasons`.
 */
export function decodeSessionResult(result: unknown, options: DecodeOptions = {}): DecodedResult {
  const data = (result as SessionResult | null | undefined)?.data;
  const output: unknown = data !== null && typeof data === 'object' ? data.output : undefined;
  const incompleteReasons: string[] = [];
  let documents: DecodedDocument[] = [];
  let shape: DecodedResult['shape'] = 'missing';
  if (Array.isArray(output)) {
    shape = 'array';
    documents = output.map(decodeItem);
    if (documents.length === 0) incompleteReasons.push('data.output is an empty array.');
  } else if (output !== null && typeof output === 'object') {
    shape = 'fhir';
    const record = output as Record<string, unknown>;
    if (record.fhir === undefined || record.fhir === null || record.fhir === '') {
      incompleteReasons.push('data.output has no "fhir" member yet.');
    } else {
      documents = [fhirDocument(record)];
    }
  } else {
    incompleteReasons.push('The result has no data.output.');
  }
  const present = new Set(documents.map((document) => document.templateId));
  const missingTemplates =
    shape === 'array' ? (options.expectedTemplates ?? []).filter((id) => !present.has(id)) : [];
  if (missingTemplates.length > 0)
    incompleteReasons.push(`Missing templates: ${missingTemplates.join(', ')}.`);
  const complete = incompleteReasons.length === 0;
  return {
    complete,
    status: overallStatus(documents, complete),
    shape,
    documents,
    missingTemplates,
    incompleteReasons,
  };
}
