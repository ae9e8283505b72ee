import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { PROTECTED_COMPACT } from '../header.js';
import { type KeyInput, keyBytes } from '../key.js';
import { IV_BYTES } from '../sizes.js';
import { Base64StreamEncoder } from './base64-stream.js';
import { FILE_PAYLOAD_PREFIX, FilePayloadEncoder } from './file-payload-stream.js';
import { StreamSealer } from './node-cbc-hmac-stream.js';
import { piecesOf } from './pieces.js';
import { checkMaxSize, SizeLimit } from './size-limit.js';
import { chunksOf } from './sources.js';
import type { ByteSource, EncryptStreamOptions } from './types.js';

/*
 * The envelope is written as the one-shot `encrypt` writes it, byte for byte what JSON.stringify
 * gives for its result: `kid`, `protected` and `iv` first, so that a streaming receiver can pick
 * the key and start decrypting at once, then `ciphertext`, then `tag`, known only at the end.
 */

const AAD = Buffer.from(PROTECTED_COMPACT, 'latin1');

async function* envelopeChunks(
  source: ByteSource,
  key: Uint8Array,
  iv: Uint8Array,
  options: EncryptStreamOptions,
  mode: 'raw' | 'file',
  what: string,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const limit = new SizeLimit(options.maxSize, mode === 'raw' ? 'plaintext' : 'file');
  const sealer = new StreamSealer(key, iv, AAD);
  const ciphertext = new Base64StreamEncoder('base64url');
  const payload = mode === 'file' ? new FilePayloadEncoder() : undefined;
  const seal = (plaintext: Uint8Array) => ciphertext.push(sealer.update(plaintext));

  const kid = options.kid === undefined ? '' : `"kid":${JSON.stringify(options.kid)},`;
  const head = `{${kid}"protected":"${PROTECTED_COMPACT}","iv":"${Buffer.from(iv).toString('base64url')}","ciphertext":"`;
  const first: Uint8Array[] = [Buffer.from(head, 'utf8')];
  if (payload) first.push(seal(FILE_PAYLOAD_PREFIX));
  yield Buffer.concat(first);

  for await (const chunk of chunksOf(source, `${what}: the source`)) {
    limit.addContent(chunk.length);
    for (const piece of piecesOf(chunk)) {
      const text = seal(payload ? payload.push(piece) : piece);
      if (text.length > 0) yield text;
    }
  }

  const tail: Uint8Array[] = [];
  for (const part of payload ? payload.end() : []) tail.push(seal(part));
  const { ciphertext: last, tag } = sealer.final();
  tail.push(ciphertext.push(last), ciphertext.end());
  tail.push(Buffer.from(`","tag":"${tag.toString('base64url')}"}`, 'latin1'));
  yield Buffer.concat(tail);
}

/**
 * Wraps an async generator as a pull-driven ReadableStream (backpressure and cancel included).
 * One chunk is made ahead, so encryption overlaps with whatever the consumer does with the last.
 */
function toReadableStream(
  chunks: AsyncGenerator<Uint8Array<ArrayBuffer>>,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

export function encryptEnvelopeStream(
  source: ByteSource,
  key: KeyInput,
  options: EncryptStreamOptions,
  mode: 'raw' | 'file',
  what: string,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  checkMaxSize(options.maxSize, what);
  if (options.kid !== undefined && typeof options.kid !== 'string') {
    throw new TypeError(`${what}: kid must be a string.`);
  }
  // Key and IV problems are reported here, synchronously, not as a stream error later.
  const bytes = keyBytes(key);
  const iv = options.unsafeFixedIv ?? randomBytes(IV_BYTES);
  if (!(iv instanceof Uint8Array) || iv.length !== IV_BYTES) {
    throw new TypeError(`${what}: the IV must be ${IV_BYTES} bytes.`);
  }
  return toReadableStream(envelopeChunks(source, bytes, iv, options, mode, what));
}
