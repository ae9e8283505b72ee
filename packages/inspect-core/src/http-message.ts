/** A captured HTTP/1.x message as proxies and `curl -i` show it: start line, headers, blank line, body. */
export interface HttpMessage {
  startLine: string;
  method: string | undefined;
  target: string | undefined;
  status: number | undefined;
  headers: Array<[name: string, value: string]>;
  body: string;
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/\d(?:\.\d)?$/;
const STATUS_LINE = /^HTTP\/\d(?:\.\d)? (\d{3})(?: .*)?$/;

export function looksLikeHttpMessage(text: string): boolean {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return REQUEST_LINE.test(firstLine) || STATUS_LINE.test(firstLine);
}

export function headerValue(
  headers: ReadonlyArray<readonly [string, string]>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([header]) => header.toLowerCase() === wanted)?.[1];
}

/** Undoes `Transfer-Encoding: chunked`, which proxies often keep in their captures. */
function dechunk(body: string): string {
  let out = '';
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\n', at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(body.slice(at, lineEnd).trim().split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size === 0) break;
    out += body.slice(lineEnd + 1, lineEnd + 1 + size);
    at = lineEnd + 1 + size;
    if (body.startsWith('\r\n', at)) at += 2;
    else if (body.startsWith('\n', at)) at += 1;
  }
  return out;
}

export function parseHttpMessage(text: string): HttpMessage {
  const split = /\r?\n\r?\n/.exec(text);
  const head = split ? text.slice(0, split.index) : text;
  const rawBody = split ? text.slice(split.index + split[0].length) : '';
  const [startLine = '', ...headerLines] = head.split(/\r?\n/);
  const headers: Array<[string, string]> = [];
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  const request = REQUEST_LINE.exec(startLine);
  const response = STATUS_LINE.exec(startLine);
  const chunked = /\bchunked\b/i.test(headerValue(headers, 'transfer-encoding') ?? '');
  return {
    startLine,
    method: request?.[1],
    target: request?.[2],
    status: response ? Number(response[1]) : undefined,
    headers,
    body: chunked ? dechunk(rawBody) : rawBody,
  };
}

/** True when the message carries the service's marker for an encrypted body. */
export function isMarkedEncrypted(headers: ReadonlyArray<readonly [string, string]>): boolean {
  return headerValue(headers, 'x-encryption')?.trim().toUpperCase() === 'JWE';
}
