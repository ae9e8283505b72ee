import { toBase64, utf8Text } from './bytes.js';
import type { HarAnalysis } from './har-analysis.js';
import { maskIdentifiers } from './mask.js';
import { isObject } from './object.js';
import type { Payload } from './payload.js';

export interface ExportOptions {
  /** Mask Aadhaar-like numbers, phone numbers and e-mail addresses in every string of the copy. */
  mask?: boolean;
}

/** The plaintext exactly as it was encrypted; a file payload stays its `{"file": …}` JSON. */
export function plaintextOf(payload: Payload): Uint8Array {
  return payload.type === 'file' ? payload.plaintext : payload.bytes;
}

function entriesOf(document: Record<string, unknown>): unknown[] {
  return (document.log as { entries: unknown[] }).entries;
}

function maskStrings(document: Record<string, unknown>): Record<string, unknown> {
  // Numbers in a HAR are sizes and timings; identifiers in it are inside strings (bodies, URLs, headers).
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return maskIdentifiers(value);
    if (Array.isArray(value)) return value.map(walk);
    if (isObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) out[name] = walk(member);
      return out;
    }
    return value;
  };
  return walk(document) as Record<string, unknown>;
}

function replaceBody(holder: Record<string, unknown>, payload: Payload, kid: string | null): void {
  const bytes = plaintextOf(payload);
  const binary = payload.type === 'binary';
  holder.text = binary ? toBase64(bytes) : utf8Text(bytes);
  if (binary) holder.encoding = 'base64';
  else delete holder.encoding;
  if ('size' in holder) holder.size = bytes.length;
  holder.comment = `decrypted by jwe-transport${kid === null ? '' : ` (kid "${kid}")`}`;
}

/**
 * A copy of the HAR with every envelope that opened replaced by its plaintext. Bodies that did
 * not open stay as they were; the copy holds plaintext, so treat it like the data itself.
 */
export function decryptedHar(
  document: Record<string, unknown>,
  analysis: HarAnalysis,
  { mask = false }: ExportOptions = {},
): Record<string, unknown> {
  const copy = structuredClone(document);
  const entries = entriesOf(copy);
  for (const row of analysis.rows) {
    const entry = entries[row.entry - 1];
    if (!isObject(entry)) continue;
    if (row.request.kind === 'decrypted' && isObject(entry.request) && isObject(entry.request.postData))
      replaceBody(entry.request.postData, row.request.payload, row.request.kid);
    if (row.response.kind === 'decrypted' && isObject(entry.response) && isObject(entry.response.content))
      replaceBody(entry.response.content, row.response.payload, row.response.kid);
  }
  return mask ? maskStrings(copy) : copy;
}

const SECRET_HEADER =
  /^(?:authorization|proxy-authorization|cookie|set-cookie|eka-webhook-signature)$|token|secret|api-?key|session|password|signature|credential|auth/i;
const REDACTED = '[redacted]';

function redactHeaders(headers: unknown): void {
  if (!Array.isArray(headers)) return;
  for (const header of headers) {
    if (isObject(header) && typeof header.name === 'string' && SECRET_HEADER.test(header.name))
      header.value = REDACTED;
  }
}

function stripQuery(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * A copy of the HAR that can be attached to a ticket: no bodies (request or response), no
 * Authorization or other credential-like headers, no cookies, no query strings. What stays:
 * methods, paths, statuses, the remaining headers, sizes and timings.
 */
export function redactedHar(
  document: Record<string, unknown>,
  { mask = false }: ExportOptions = {},
): Record<string, unknown> {
  const copy = structuredClone(document);
  for (const entry of entriesOf(copy)) {
    if (!isObject(entry)) continue;
    const request = isObject(entry.request) ? entry.request : undefined;
    const response = isObject(entry.response) ? entry.response : undefined;
    if (request) {
      request.url = stripQuery(request.url);
      if (Array.isArray(request.queryString)) request.queryString = [];
      if (Array.isArray(request.cookies)) request.cookies = [];
      redactHeaders(request.headers);
      if (isObject(request.postData)) {
        request.postData = {
          mimeType: typeof request.postData.mimeType === 'string' ? request.postData.mimeType : '',
          text: '',
          comment: 'body removed',
        };
      }
    }
    if (response) {
      if (Array.isArray(response.cookies)) response.cookies = [];
      redactHeaders(response.headers);
      response.redirectURL = stripQuery(response.redirectURL);
      if (isObject(response.content)) {
        const { size, mimeType } = response.content;
        response.content = {
          size: typeof size === 'number' ? size : 0,
          mimeType: typeof mimeType === 'string' ? mimeType : '',
          text: '',
          comment: 'body removed',
        };
      }
    }
    // Browsers store page-level data too; none of it is needed to read the requests.
    delete entry._initiator;
    delete entry.initiator;
  }
  return mask ? maskStrings(copy) : copy;
}
