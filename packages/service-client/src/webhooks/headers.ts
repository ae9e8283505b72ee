/** Request headers as a runtime gives them: Web `Headers`, or Node's lower-cased header object. */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** One header's value, case-insensitively; a repeated header counts as absent (ambiguous). */
export function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === 'string') return value;
    return Array.isArray(value) && value.length === 1 ? String(value[0]) : undefined;
  }
  return undefined;
}
