import { createHash } from 'node:crypto';

/** A sink that keeps only what a report needs: the size, the SHA-256, and the first bytes for sniffing. */
export function digestSink() {
  const hash = createHash('sha256');
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let size = 0;
  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      hash.update(chunk);
      size += chunk.length;
      if (headBytes < 64) {
        head.push(chunk.slice(0, 64 - headBytes));
        headBytes += Math.min(chunk.length, 64 - headBytes);
      }
    },
  });
  return {
    stream,
    result: () => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(head) }),
  };
}
