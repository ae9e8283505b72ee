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
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
}

/**
 * Finds the bodies to decrypt: every request and response marked `X-Encryption: JWE` or whose
 * body is an envelope. Entries are read defensively, since HAR exporters differ in what they omit.
 */
export function scanHar(document: Record<string, unknown>): HarScan {
  const log = document.log as { entries: unknown[] };
  const bodies: HarBody[] = [];
  log.entries.forEach((entry, index) => {
    if (!isObject(entry)) return;
    const request = isObject(entry.request) ? entry.request : {};
    const response = isObject(entry.response) ? entry.response : {};
    const method = typeof request.method === 'string' ? request.method : '?';
    const url = typeof request.url === 'string' ? request.url : '?';
    const status = typeof response.status === 'number' && response.status > 0 ? response.status : undefined;
    const postData = isObject(request.postData) ? request.postData : {};
    const sides = [
      {
        side: 'request' as const,
        headers: request.headers,
        text: typeof postData.text === 'string' ? postData.text : undefined,
      },
      { side: 'response' as const, headers: response.headers, text: responseText(response.content) },
    ];
    for (const { side, headers, text } of sides) {
      const marked = isMarkedEncrypted(headerPairs(headers));
      if (text === undefined || text === '') continue;
      if (marked || looksLikeEnvelope(text))
        bodies.push({ entry: index + 1, side, method, url, status, text, marked });
    }
  });
  return { entries: log.entries.length, bodies };
}
