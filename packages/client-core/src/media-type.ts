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
export function saysJwe(headers: Headers): boolean {
  return headers.get('x-encryption')?.trim().toUpperCase() === 'JWE';
}
