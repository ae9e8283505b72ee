/**
 * The part of a ky instance (1.x or 2.x) these helpers use. Paths are relative to the instance's
 * `prefixUrl` (ky 1) or `prefix` (ky 2), so they have no leading slash; absolute URLs work too.
 */
export interface KyLike {
  get(url: string, options?: Record<string, unknown>): PromiseLike<Response>;
  post(url: string, options?: Record<string, unknown>): PromiseLike<Response>;
}

/**
 * Extra ky options for the helpers' requests, e.g. `{ context: { jwe: false } }` to send one call
 * unencrypted through an instance that has `jwe()`, or `{ timeout: 60_000 }`.
 */
export type ExtraKyOptions = Record<string, unknown>;

/** Reads a JSON body without throwing; `undefined` when it is not JSON. */
export async function jsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A short, safe description of an error body for messages (its `message`/`error` member only). */
export function serviceMessage(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const record = body as Record<string, unknown>;
  const nested =
    record.error !== null && typeof record.error === 'object'
      ? (record.error as Record<string, unknown>)
      : {};
  const text = [record.message, record.error, record.detail, nested.message].find(
    (value) => typeof value === 'string',
  );
  return typeof text === 'string' ? ` The service said: ${JSON.stringify(text.slice(0, 200))}.` : '';
}
