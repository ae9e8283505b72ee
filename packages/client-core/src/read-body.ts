/**
 * Reads a whole body and releases the reader. `Response.text()` leaves the stream locked, and ky
 * cancels the clone it handed to a hook when the hook is done; cancelling a locked stream
 * rejects with an error whose stack trace costs more than decrypting a 1 KiB envelope.
 */
export async function readBody(response: Response): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
