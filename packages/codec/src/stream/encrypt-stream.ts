import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { IV_BYTES } from '../cbc-hmac.js';
import { PROTECTED_COMPACT } from '../header.js';
import { type KeyInput, keyBytes } from '../key.js';
import { Base64StreamEncoder } from './base64-stream.js';
import { FILE_PAYLOAD_PREFIX, FilePayloadEncoder } from './file-payload-stream.js';
import { StreamSealer } from './node-cbc-hmac-stream.js';
import { piecesOf } from './pieces.js';
import { checkMaxSize, SizeLimit } from './size-limit.js';
import { chunksOf } from './sources.js';
import type { ByteSource, EncryptStreamOptions } from './types.js';

/*
 * The envelope is written in the one-shot `encrypt`'s member order, `protected`, `iv`,
 * `ciphertext`, `tag`, `kid`, byte for byte what JSON.stringify gives for its result: the tag
 * is known only at the end, and it comes after the ciphertext there too.
 */

const AAD = Buffer.from(PROTECTED_COMPACT, 'latin1');

async function* envelopeChunks(
  source: ByteSource,
  key: Uint8Array,
  iv: Uint8Array,
  options: EncryptStreamOptions,
  mode: 'raw' | 'file',
  what: string,
): AsyncGenerator<Uint8Array> {
  const limit = new SizeLimit(options.maxSize, mode === 'raw' ? 'plaintext' : 'file');
  const sealer = new StreamSealer(key, iv, AAD);
  const ciphertext = new Base64StreamEncoder('base64url');
  const payload = mode === 'file' ? new FilePayloadEncoder() : undefined;
  const seal = async (plaintext: Uint8Array) => ciphertext.push(await sealer.update(plaintext));

  let sealed = false;
  try {
    const head = `{"protected":"${PROTECTED_COMPACT}","iv":"${Buffer.from(iv).toString('base64url')}","ciphertext":"`;
    const first: Uint8Array[] = [Buffer.from(head, 'latin1')];
    if (payload) first.push(await seal(FILE_PAYLOAD_PREFIX));
    yield Buffer.concat(first);

    for await (const chunk of chunksOf(source, `${what}: the source`)) {
      limit.addContent(chunk.length);
      for (const piece of piecesOf(chunk)) {
        const text = await seal(payload ? payload.push(piece) : piece);
        if (text.length > 0) yield text;
      }
    }

    const tail: Uint8Array[] = [];
    for (const part of payload ? payload.end() : []) tail.push(await seal(part));
    const { ciphertext: last, tag } = await sealer.final();
    sealed = true;
    tail.push(ciphertext.push(last), ciphertext.end());
    let close = `","tag":"${tag.toString('base64url')}"`;
    if (options.kid !== undefined) close += `,"kid":${JSON.stringify(options.kid)}`;
    tail.push(Buffer.from(`${close}}`, 'utf8'));
    yield Buffer.concat(tail);
  } finally {
    // A failed or cancelled stream gives the MAC worker back to the next one.
    if (!sealed) sealer.abandon();
  }
}

/**
 * Wraps an async generator as a pull-driven ReadableStream (backpressure and cancel included).
 * One chunk is made ahead, so encryption overlaps with whatever the consumer does with the last.
 */
function toReadableStream(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
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
): ReadableStream<Uint8Array> {
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
