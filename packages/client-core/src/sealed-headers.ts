/** Headers for an envelope body: the caller's headers with the spec's marker and JSON type. */
export function envelopeHeaders(headers: HeadersInit | undefined): Headers {
  const result = new Headers(headers);
  result.set('x-encryption', 'JWE');
  result.set('content-type', 'application/json');
  // The envelope is longer than the plaintext: a copied length would truncate or stall the upload.
  result.delete('content-length');
  return result;
}
