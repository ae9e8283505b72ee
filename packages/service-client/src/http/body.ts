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
