import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Refusal } from './admission.js';
import { HOP_BY_HOP } from './upstream.js';

/** Names the proxy's own refusals, so a tool's user can tell them from the upstream's. */
export const PROXY_ERROR_HEADER = 'x-jwe-proxy-error';

/** The proxy's own error answer: JSON `{"error": {code, message}}`, never anything secret. */
export function writeRefusal(response: ServerResponse, refusal: Refusal): Buffer {
  const body = Buffer.from(
    `${JSON.stringify({ error: { code: refusal.code, message: refusal.message, source: 'jwe-transport proxy' } })}\n`,
  );
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return body;
  }
  response.writeHead(refusal.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-store',
    [PROXY_ERROR_HEADER]: refusal.code,
  });
  response.end(body);
  return body;
}

/** The answer's headers for the tool: hop-by-hop ones and the length (the body is re-framed) left out. */
export function answerHeaders(pairs: Iterable<[string, string]>, drop: ReadonlySet<string> = new Set()) {
  const out: [string, string][] = [];
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || drop.has(lower)) continue;
    out.push([name, value]);
  }
  return out;
}

/** Writes a status, header pairs and a streamed body; resolves when the tool has it all. */
export async function writeAnswer(
  response: ServerResponse,
  status: number,
  statusText: string,
  headers: [string, string][],
  body: ReadableStream<Uint8Array> | null,
): Promise<void> {
  response.writeHead(status, statusText || undefined, headers.flat());
  if (body === null) {
    response.end();
    return;
  }
  await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>), response);
}
