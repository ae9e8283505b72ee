/** The media type without parameters, lower-cased: `text/html` for `text/html; charset=utf-8`. */
export function essence(contentType: string | null): string {
  return contentType === null ? '' : contentType.split(';', 1)[0]!.trim().toLowerCase();
}

/** `application/json`, `application/problem+json`, `application/jose+json` and the like. */
export function isJsonMediaType(contentType: string | null): boolean {
  const type = essence(contentType);
  return type === 'application/json' || type.endsWith('+json');
}

export function isMultipartForm(contentType: string | null): boolean {
  return essence(contentType) === 'multipart/form-data';
}

/** The spec's marker header (4.1), compared without regard to case as header values often are. */
/**
 * What the core reads from a response's headers. fetch `Headers` qualify; so does an adapter's own
 * view over the record its HTTP library already parsed, which spares building a `Headers` per response.
 * Names are asked for in lower case.
 */
export interface HeaderView {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
}

/** A fetch `Headers` copy of any view (for a `Response` or an edit that must not touch the original). */
export function headersOf(view: HeaderView): Headers {
  const headers = new Headers();
  view.forEach((value, name) => {
    headers.append(name, value);
  });
  return headers;
}

export function saysJwe(headers: HeaderView): boolean {
  return headers.get('x-encryption')?.trim().toUpperCase() === 'JWE';
}
