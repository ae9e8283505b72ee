/**
 * A body's chunks gathered into one run of bytes. When the request declared its length (already
 * checked against the limit), each chunk is copied into its place as it arrives and can be
 * collected at once; gathering them all and copying at the end would hold the body twice at the
 * peak, which for a large upload read into memory is most of its cost. The declared length is
 * allocated when the first chunk arrives: zeroed memory the system maps only as bytes are written
 * into it, so a client that declares much and sends little costs little.
 */
export class BodyBytes {
  private chunks: Uint8Array[] = [];
  private bytes: Uint8Array | undefined;
  private filled = 0;
  /** Bytes received so far. */
  total = 0;

  /** `declared`: the length the request announced, when it announced one the limit allows. */
  constructor(private readonly declared: number | undefined) {}

  add(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.bytes === undefined && this.chunks.length === 0 && this.worthPlacing(chunk)) {
      this.bytes = new Uint8Array(this.declared!);
    }
    if (this.bytes !== undefined && this.filled + chunk.length <= this.bytes.length) {
      this.bytes.set(chunk, this.filled);
      this.filled += chunk.length;
      return;
    }
    if (this.bytes !== undefined) {
      // More than declared (a source that does not hold to its length): gathered as for no length.
      this.chunks.push(this.bytes.subarray(0, this.filled));
      this.bytes = undefined;
    }
    this.chunks.push(chunk);
  }

  /** Everything received, as one `Uint8Array` (a single chunk is handed back as it came). */
  result(): Uint8Array {
    if (this.bytes !== undefined) return this.bytes.subarray(0, this.filled);
    if (this.chunks.length === 1) return this.chunks[0]!;
    const bytes = new Uint8Array(this.total);
    let at = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes;
  }

  /** A body that comes whole in its first chunk is kept as that chunk, with no copy. */
  private worthPlacing(first: Uint8Array): boolean {
    return this.declared !== undefined && first.length < this.declared;
  }
}

/** The declared length of a body, when it is a plain byte count. */
export function declaredLength(
  contentLength: string | readonly string[] | null | undefined,
): number | undefined {
  if (typeof contentLength !== 'string') return undefined;
  const length = Number(contentLength);
  return Number.isSafeInteger(length) && length > 0 && /^\s*\d+\s*$/.test(contentLength) ? length : undefined;
}
