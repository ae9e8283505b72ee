/** `application/json`, `application/problem+json`, `application/jose+json` and the like. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json');
}

export function isMultipartForm(contentType: string | null): boolean {
  return (contentType ?? '').trim().toLowerCase().startsWith('multipart/form-data');
}

/** The spec's marker header (4.1): compared without regard to case, as header values often are. */
export function saysJwe(headers: Headers): boolean {
  return headers.get('x-encryption')?.trim().toUpperCase() === 'JWE';
}
