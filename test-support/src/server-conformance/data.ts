import { createHash, randomBytes } from 'node:crypto';

const MiB = 2 ** 20;

/**
 * `size` bytes made on the fly in 1 MiB chunks (one random block, varied per chunk so that no
 * two chunks repeat), hashed on the way and never kept. `onChunk` runs before each chunk leaves.
 */
export function generatedFile(size: number, onChunk: () => void = () => {}) {
  const hash = createHash('sha256');
  const block = randomBytes(MiB);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let sent = 0, index = 0; sent < size; sent += MiB, index++) {
      const chunk = Buffer.from(block.subarray(0, Math.min(MiB, size - sent)));
      chunk.writeUInt32BE(index, 0);
      hash.update(chunk);
      onChunk();
      yield chunk;
    }
  }
  return { chunks: chunks(), digest: () => hash.digest('hex') };
}

/** Passes envelope bytes on, flipping one base64url letter once `at` bytes have gone by. */
export async function* flipLetterAt(
  source: AsyncIterable<Uint8Array>,
  at: number,
): AsyncGenerator<Uint8Array> {
  let passed = 0;
  for await (const chunk of source) {
    let out = chunk;
    if (passed <= at && at < passed + chunk.length) {
      out = Uint8Array.from(chunk);
      const index = at - passed;
      out[index] = out[index] === 0x41 ? 0x42 : 0x41;
    }
    passed += chunk.length;
    yield out;
  }
}

/** Passes on the first `bytes` of the source, then stops. */
export async function* firstBytes(
  source: AsyncIterable<Uint8Array>,
  bytes: number,
): AsyncGenerator<Uint8Array> {
  let passed = 0;
  for await (const chunk of source) {
    if (passed + chunk.length >= bytes) {
      yield chunk.subarray(0, bytes - passed);
      return;
    }
    passed += chunk.length;
    yield chunk;
  }
}

/** `count` bytes of valid base64url text in 64 KiB pieces: ciphertext filler for a stream that never completes. */
export function* base64urlFiller(count: number): Generator<Uint8Array> {
  const piece = Buffer.alloc(64 * 1024, 'A');
  for (let sent = 0; sent < count; sent += piece.length)
    yield piece.subarray(0, Math.min(piece.length, count - sent));
}

/**
 * Moves the `kid` member that the codec's stream encoder writes first to the end, as other
 * senders may place it: the server then learns the key only after the ciphertext.
 */
export async function* withKidLast(
  source: AsyncIterable<Uint8Array>,
  kid: string,
): AsyncGenerator<Uint8Array> {
  const leading = Buffer.from(`{"kid":${JSON.stringify(kid)},`);
  let held = Buffer.alloc(0);
  let checked = false;
  let last: Buffer | undefined;
  for await (const chunk of source) {
    let bytes = Buffer.from(chunk);
    if (!checked) {
      held = Buffer.concat([held, bytes]);
      if (held.length < leading.length) continue;
      if (!held.subarray(0, leading.length).equals(leading))
        throw new Error(`the envelope does not start with ${leading}`);
      yield Buffer.from('{');
      bytes = held.subarray(leading.length);
      checked = true;
    }
    // Hold back the last byte seen, the closing brace, so that the member can go in front of it.
    if (last !== undefined) yield last;
    if (bytes.length === 0) continue;
    if (bytes.length > 1) yield bytes.subarray(0, bytes.length - 1);
    last = bytes.subarray(bytes.length - 1);
  }
  if (last?.toString() !== '}') throw new Error('the envelope does not end with "}"');
  yield Buffer.from(`,"kid":${JSON.stringify(kid)}}`);
}
