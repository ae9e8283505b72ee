import type { AxiosResponseHeaders, RawAxiosResponseHeaders } from 'axios';

type AnyAxiosHeaders = AxiosResponseHeaders | RawAxiosResponseHeaders | Record<string, unknown> | undefined;

/** axios headers (an AxiosHeaders or a plain record) as fetch `Headers`, which the core speaks. */
export function toFetchHeaders(headers: AnyAxiosHeaders): Headers {
  const result = new Headers();
  if (!headers) return result;
  const record =
    typeof (headers as { toJSON?: unknown }).toJSON === 'function'
      ? ((headers as { toJSON(): Record<string, unknown> }).toJSON() as Record<string, unknown>)
      : (headers as Record<string, unknown>);
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === false) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      try {
        result.append(name, String(item));
      } catch {
        // A name fetch refuses (axios accepts more) cannot matter to the envelope rules.
      }
    }
  }
  return result;
}

/** fetch `Headers` back into the record form that `new AxiosHeaders(...)` takes. */
export function toRecord(headers: Headers): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}
