import type { Dispatcher } from 'undici';

/** undici takes headers as a record, a flat `[name, value, ...]` array, or pairs; fetch needs `Headers`. */
export function toHeaders(headers: Dispatcher.DispatchOptions['headers']): Headers {
  const result = new Headers();
  if (headers === null || headers === undefined) return result;
  if (Array.isArray(headers)) {
    for (let at = 0; at + 1 < headers.length; at += 2)
      result.append(String(headers[at]), String(headers[at + 1]));
    return result;
  }
  const pairs: Iterable<[string, unknown]> =
    Symbol.iterator in headers
      ? (headers as Iterable<[string, unknown]>)
      : Object.entries(headers as Record<string, unknown>);
  for (const [name, value] of pairs) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) result.append(name, String(item));
  }
  return result;
}

/** Back to a record for undici; `set-cookie` is the only request header that could repeat, and it does not. */
export function fromHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}
