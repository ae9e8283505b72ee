import type { PreparedKey, SyncPrimitives } from '../backend/types.js';
import { computeTagSync, seal, sealPiecesSync, sealSync } from '../cbc-hmac.js';
import type { Envelope } from '../envelope.js';
import { JweError } from '../errors.js';
import { buildFilePayload, filePayloadLength, filePayloadPieces } from '../file-payload.js';
import { PROTECTED_COMPACT } from '../header.js';
import type { KeyInput } from '../key.js';
import type { EncryptOptions } from '../options.js';
import { paddedLength } from '../pkcs7.js';
import { IV_BYTES } from '../sizes.js';
import type { CodecContext } from './context.js';
import { TEXT_AFTER_CIPHERTEXT_LENGTH, textAfterCiphertext, textBeforeCiphertext } from './envelope-text.js';

/*
 * The work of the public encrypt functions (src/api/encrypt*.ts), with the back end as an
 * argument; `caller` names the public function in errors.
 */

/** Checks an encrypt function's arguments and returns the IV to use. */
function encryptInputs(
  { backend }: CodecContext,
  plaintext: unknown,
  options: EncryptOptions,
  caller: string,
): Uint8Array {
  if (typeof plaintext !== 'string' && !(plaintext instanceof Uint8Array))
    throw new TypeError(`${caller}: plaintext must be a Uint8Array or a string.`);
  if (options.kid !== undefined && typeof options.kid !== 'string') {
    throw new TypeError(`${caller}: kid must be a string.`);
  }
  const iv = options.unsafeFixedIv ?? backend.randomBytes(IV_BYTES);
  if (iv.length !== IV_BYTES) throw new TypeError(`${caller}: the IV must be ${IV_BYTES} bytes.`);
  return iv;
}

const fitsOneString = ({ backend }: CodecContext, plaintextLength: number) =>
  backend.maxStringLength === undefined ||
  Math.ceil((paddedLength(plaintextLength) / 3) * 4) <= backend.maxStringLength;

/**
 * Refuses, before any work, a plaintext whose envelope's ciphertext would not fit in one string
 * (V8's limit is 2^29 - 24 characters, about 288 MiB of file): the runtime's own error would come
 * only after the file had been encoded, and would not say what to do instead.
 */
function assertFitsOneString(
  context: CodecContext,
  plaintextLength: number,
  what: string,
  stream: string,
): void {
  if (!fitsOneString(context, plaintextLength)) {
    throw new RangeError(
      `${what} makes an envelope longer than the longest string this runtime can hold ` +
        `(${context.backend.maxStringLength} characters). Use ${stream}() for content this large.`,
    );
  }
}

function envelopeOf(
  { backend }: CodecContext,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  kid: string | undefined,
): Envelope {
  // `kid`, `protected` and `iv` lead so that a streaming receiver can choose the key and start
  // decrypting before the ciphertext has ended; the streaming encoder writes the same bytes.
  const ivText = backend.encodeBase64Url(iv);
  const ciphertextText = backend.encodeBase64Url(ciphertext);
  const tagText = backend.encodeBase64Url(tag);
  return kid === undefined
    ? { protected: PROTECTED_COMPACT, iv: ivText, ciphertext: ciphertextText, tag: tagText }
    : { kid, protected: PROTECTED_COMPACT, iv: ivText, ciphertext: ciphertextText, tag: tagText };
}

/** Seals without a promise; only back ends with synchronous crypto can. */
export function sealNow(
  context: CodecContext,
  plaintext: Uint8Array | string,
  key: KeyInput,
  options: EncryptOptions,
  caller: string,
): Envelope {
  const { backend, prepare, defaultAad } = context;
  const sync = backend.sync;
  if (!sync) {
    throw new JweError(
      'ERR_JWE_UNSUPPORTED',
      `${caller} needs synchronous crypto, which the ${backend.name} back end does not have: use encrypt().`,
    );
  }
  const iv = encryptInputs(context, plaintext, options, caller);
  // Text goes to the cipher as it is (node:crypto writes its UTF-8 straight into the padded
  // blocks); only text that might be near the size limit is encoded first to measure it.
  let input = plaintext;
  if (typeof input === 'string' && !fitsOneString(context, input.length * 3))
    input = backend.utf8Bytes(input);
  if (typeof input !== 'string') {
    assertFitsOneString(
      context,
      input.length,
      `${caller}: a plaintext of ${input.length} bytes`,
      'encryptStream',
    );
  }
  const prepared = prepare(key) as PreparedKey;
  const { ciphertext, tag } = sealSync(sync, prepared, iv, input, defaultAad);
  return envelopeOf(context, iv, ciphertext, tag, options.kid);
}

export async function sealBytes(
  context: CodecContext,
  plaintext: Uint8Array | string,
  key: KeyInput,
  options: EncryptOptions,
): Promise<Envelope> {
  const { backend, prepare, defaultAad } = context;
  // With synchronous primitives, one promise for the whole call is all the asynchrony needed.
  if (backend.sync) return sealNow(context, plaintext, key, options, 'encrypt');
  const iv = encryptInputs(context, plaintext, options, 'encrypt');
  const bytes = typeof plaintext === 'string' ? backend.utf8Bytes(plaintext) : plaintext;
  const prepared = await prepare(key);
  const { ciphertext, tag } = await seal(backend, prepared, iv, bytes, defaultAad);
  return envelopeOf(context, iv, ciphertext, tag, options.kid);
}

export async function sealJson(
  context: CodecContext,
  value: unknown,
  key: KeyInput,
  options: EncryptOptions,
): Promise<Envelope> {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('encryptJson: the value has no JSON representation.');
  // Sealing here rather than awaiting sealBytes() saves a promise and its microtask hops.
  return context.backend.sync
    ? sealNow(context, text, key, options, 'encrypt')
    : sealBytes(context, text, key, options);
}

/** Checks a file encrypt function's arguments; returns the IV and the payload's length. */
function fileInputs(context: CodecContext, bytes: Uint8Array, options: EncryptOptions, caller: string) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${caller}: the file must be a Uint8Array.`);
  const payloadLength = filePayloadLength(bytes.length);
  assertFitsOneString(
    context,
    payloadLength,
    `${caller}: a file of ${bytes.length} bytes`,
    'encryptFileStream',
  );
  return { iv: encryptInputs(context, bytes, options, caller), payloadLength };
}

export async function sealFile(
  context: CodecContext,
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions,
  caller = 'encryptFile',
): Promise<Envelope> {
  const { backend, prepare, defaultAad } = context;
  const { iv, payloadLength } = fileInputs(context, bytes, options, caller);
  // With synchronous crypto the payload goes to the cipher piece by piece and never exists
  // whole: the file's only other copies are the ciphertext and the envelope's text.
  const { ciphertext, tag } = backend.sync
    ? sealPiecesSync(
        backend.sync,
        prepare(key) as PreparedKey,
        iv,
        filePayloadPieces(backend, bytes),
        payloadLength,
        defaultAad,
      )
    : await seal(backend, await prepare(key), iv, buildFilePayload(backend, bytes), defaultAad);
  return envelopeOf(context, iv, ciphertext, tag, options.kid);
}

const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * `sealFile` to the envelope's JSON text. With synchronous crypto the text is built in one buffer
 * that holds the ciphertext too (see `aesCbcEncryptPiecesToText`), so the largest things alive at
 * once are that buffer and the text; the envelope object's path holds the ciphertext, its
 * base64url string and then the JSON text.
 */
export async function sealFileText(
  context: CodecContext,
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions,
): Promise<string> {
  const sync = context.backend.sync;
  // The one text buffer holds Latin-1; a kid beyond it takes the envelope object's way.
  if (!sync || (typeof options.kid === 'string' && BEYOND_LATIN1.test(options.kid))) {
    const envelope = await sealFile(context, bytes, key, options, 'encryptFileToString');
    return `${textBeforeCiphertext(envelope.kid, envelope.iv)}${envelope.ciphertext}${textAfterCiphertext(envelope.tag)}`;
  }
  return sync.aesCbcEncryptPiecesToText(
    ...textInOneBuffer(context, sync, bytes, key, options, 'encryptFileToString'),
  );
}

/** The arguments of the back end's in-buffer text sealing (`aesCbcEncryptPiecesTo*`) for a file. */
function textInOneBuffer(
  context: CodecContext,
  sync: SyncPrimitives,
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions,
  caller: string,
) {
  const { backend, prepare, defaultAad } = context;
  const { iv, payloadLength } = fileInputs(context, bytes, options, caller);
  const prepared = prepare(key) as PreparedKey;
  return [
    prepared,
    iv,
    filePayloadPieces(backend, bytes),
    payloadLength,
    textBeforeCiphertext(options.kid, backend.encodeBase64Url(iv)),
    TEXT_AFTER_CIPHERTEXT_LENGTH,
    (ciphertext: Uint8Array) =>
      textAfterCiphertext(
        backend.encodeBase64Url(computeTagSync(sync, prepared, defaultAad, iv, ciphertext)),
      ),
  ] as const;
}

/**
 * `sealFileText`'s text as UTF-8 bytes, never made a string. With synchronous crypto it is the one
 * buffer the text is built in; otherwise it is written from the envelope object's parts, which
 * hold the ciphertext, its base64url string and then these bytes.
 */
export async function sealFileUtf8(
  context: CodecContext,
  bytes: Uint8Array,
  key: KeyInput,
  options: EncryptOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const { backend } = context;
  const sync = backend.sync;
  if (!sync) {
    const envelope = await sealFile(context, bytes, key, options, 'encryptFileToBytes');
    const before = backend.utf8Bytes(textBeforeCiphertext(envelope.kid, envelope.iv));
    const after = textAfterCiphertext(envelope.tag);
    const out = new Uint8Array(before.length + envelope.ciphertext.length + after.length);
    out.set(before);
    // The base64url texts are ASCII: one byte a character, so each fills its place exactly.
    const encoder = new TextEncoder();
    encoder.encodeInto(envelope.ciphertext, out.subarray(before.length));
    encoder.encodeInto(after, out.subarray(before.length + envelope.ciphertext.length));
    return out;
  }
  return sync.aesCbcEncryptPiecesToUtf8(
    ...textInOneBuffer(context, sync, bytes, key, options, 'encryptFileToBytes'),
  );
}
