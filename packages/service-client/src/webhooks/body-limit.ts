import { WebhookError } from './errors.js';

/** Default size limit of a delivery body (a notification is a few hundred bytes). */
export const DEFAULT_WEBHOOK_LIMIT = 256 * 1024;

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2 };

/** A byte count, or `'256kb'`-style text. */
export function parseLimit(limit: number | string | undefined, what: string): number {
  if (limit === undefined) return DEFAULT_WEBHOOK_LIMIT;
  const match = typeof limit === 'string' ? /^\s*(\d+)\s*(b|kb|mb)?\s*$/i.exec(limit) : undefined;
  const bytes =
    typeof limit === 'number'
      ? limit
      : match
        ? Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1)
        : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new TypeError(
      `${what}: limit must be a positive byte count or text such as '256kb'; got ${JSON.stringify(limit)}.`,
    );
  }
  return bytes;
}

export function tooLarge(limit: number): WebhookError {
  return new WebhookError(
    'webhook.body.too_large',
    `The webhook body is larger than the receiver's limit of ${limit} bytes.`,
  );
}

/** Reads a Web stream body, refusing it as soon as it passes `limit` bytes. */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
