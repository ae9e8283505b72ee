/** Headers for an envelope body: the caller's headers with the spec's marker and JSON type. */
export function envelopeHeaders(headers: HeadersInit | undefined): Headers {
  return markEnvelope(new Headers(headers));
}

/** {@link envelopeHeaders} on headers the caller owns and gives up: no copy. */
export function markEnvelope(headers: Headers): Headers {
  headers.set('x-encryption', 'JWE');
  headers.set('content-type', 'application/json');
  // The envelope is longer than the plaintext: a copied length would truncate or stall the upload.
  headers.delete('content-length');
  return headers;
}
