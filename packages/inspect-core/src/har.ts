import { fromBase64, utf8Text } from './bytes.js';
import { looksLikeEnvelope } from './classify.js';
import { isMarkedEncrypted } from './http-message.js';
import { isObject } from './object.js';

/** One request or response body in a HAR file that is (or claims to be) encrypted. */
export interface HarBody {
  /** 1-based position of the entry in `log.entries`, as people count them in a network panel. */
  entry: number;
  side: 'request' | 'response';
  method: string;
  url: string;
  status: number | undefined;
  text: string;
  /** The message carries `X-Encryption: JWE`. */
  marked: boolean;
}

export interface HarScan {
  entries: number;
  bodies: HarBody[];
}

function headerPairs(value: unknown): Array<[string, string]> {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isObject)
    .filter((header) => typeof header.name === 'string' && typeof header.value === 'string')
    .map((header) => [header.name as string, header.value as string]);
}

function responseText(content: unknown): string | undefined {
  if (!isObject(content) || typeof content.text !== 'string') return undefined;
  // HAR 1.2 stores binary or compressed-then-decoded bodies as base64 with encoding "base64".
  if (content.encoding !== 'base64') return content.text;
  // Only base64 characters are decoded, as Buffer.from(text, 'base64') did: stray ones are skipped.
  return utf8Text(
    fromBase64(
      content.text
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .replace(/[^A-Za-z0-9+/]/g, ''),
    ),
  );
}

/** One side of a HAR entry as the engine reads it: its headers and its body text, if any. */
export interface HarSide {
  side: 'request' | 'response';
  headers: Array<[string, string]>;
  text: string | undefined;
  marked: boolean;
  /** The body is (or is marked as) an envelope. */
  encrypted: boolean;
}

export interface HarEntryView {
  entry: number;
  method: string;
  url: string;
  status: number | undefined;
  sides: [HarSide, HarSide];
}

/** Reads one entry defensively, since HAR exporters differ in what they omit. */
export function readHarEntry(entry: unknown, index: number): HarEntryView | undefined {
  if (!isObject(entry)) return undefined;
  const request = isObject(entry.request) ? entry.request : {};
  const response = isObject(entry.response) ? entry.response : {};
  const postData = isObject(request.postData) ? request.postData : {};
  const side = (name: 'request' | 'response', headers: unknown, text: string | undefined): HarSide => {
    const pairs = headerPairs(headers);
    const marked = isMarkedEncrypted(pairs);
    const present = text !== undefined && text !== '';
    return {
      side: name,
      headers: pairs,
      text: present ? text : undefined,
      marked,
      encrypted: present && (marked || looksLikeEnvelope(text)),
    };
  };
  return {
    entry: index + 1,
    method: typeof request.method === 'string' ? request.method : '?',
    url: typeof request.url === 'string' ? request.url : '?',
    status: typeof response.status === 'number' && response.status > 0 ? response.status : undefined,
    sides: [
      side('request', request.headers, typeof postData.text === 'string' ? postData.text : undefined),
      side('response', response.headers, responseText(response.content)),
    ],
  };
}

/**
 * Finds the bodies to decrypt: every request and response marked `X-Encryption: JWE` or whose
 * body is an envelope.
 */
export function scanHar(document: Record<string, unknown>): HarScan {
  const log = document.log as { entries: unknown[] };
  const bodies: HarBody[] = [];
  log.entries.forEach((raw, index) => {
    const view = readHarEntry(raw, index);
    if (!view) return;
    for (const { side, text, marked, encrypted } of view.sides) {
      if (encrypted && text !== undefined)
        bodies.push({
          entry: view.entry,
          side,
          method: view.method,
          url: view.url,
          status: view.status,
          text,
          marked,
        });
    }
  });
  return { entries: log.entries.length, bodies };
}
