/*
 * Work is done in pieces of at most 64 KiB whatever size the caller's chunks have. Buffers that
 * size die young in V8, while megabyte buffers tend to survive until a full GC, which lets tens
 * of megabytes of dead buffers pile up and doubles peak memory. Per-piece overhead stays small
 * next to the crypto.
 */
const PIECE_BYTES = 64 * 1024;

export function* piecesOf(chunk: Uint8Array): Generator<Uint8Array> {
  if (chunk.length <= PIECE_BYTES) {
    yield chunk;
    return;
  }
  for (let at = 0; at < chunk.length; at += PIECE_BYTES) yield chunk.subarray(at, at + PIECE_BYTES);
}
