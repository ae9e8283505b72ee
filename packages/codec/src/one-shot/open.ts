import type { PreparedKey } from '../backend/types.js';
import { open, openSync } from '../cbc-hmac.js';
import { type Envelope, type EnvelopeInput, readEnvelope } from '../envelope.js';
import { invalid } from '../errors.js';
import { parseFilePayload } from '../file-payload.js';
import { assertSupportedHeader, decodeUtf8, ENC } from '../header.js';
import {
  assertProtectedPolicy,
  headerSourceOf,
  implyAlgorithm,
  jointHeader,
  pickKid,
  protectedCandidates,
} from '../header-rules.js';
import { type KeyInput, type KeyResolver, unknownKid } from '../key.js';
import type { DecryptOptions, DecryptResult } from '../options.js';
import { IV_BYTES } from '../sizes.js';
import { findCiphertextRange } from './ciphertext-range.js';
import type { CodecContext } from './context.js';

/*
 * The work of the public decrypt functions (src/api/decrypt*.ts), with the back end as an argument.
 */

/** Promises and other thenables a key resolver may return. */
const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as PromiseLike<T> | null | undefined)?.then === 'function';

/**
 * Everything decryption checks before it touches a key or any crypto: the envelope's shape, the
 * header rules, and strict base64url of every member. A large envelope's text or bytes are read
 * without copying the ciphertext's characters out (see ciphertext-range.ts); whatever that way
 * refuses is read again whole, so errors are the same either way.
 */
function readForOpening(context: CodecContext, input: EnvelopeInput, options: DecryptOptions) {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    try {
      const range = findCiphertextRange(input);
      if (range) {
        const envelope = readEnvelope(range.rest);
        if (envelope.ciphertext === '') {
          const { backend } = context;
          const { start, end } = range;
          const check = backend.checkBase64UrlRange;
          if (options.consumeInput === true && input instanceof Uint8Array && check) {
            // Nothing is written into the input until every check has passed, so that a refusal
            // can still read it whole below.
            return readMembers(
              context,
              envelope,
              options,
              () => {
                check(input, start, end, CIPHERTEXT);
                return undefined;
              },
              () => backend.decodeBase64UrlRange(input, start, end, CIPHERTEXT, true),
            );
          }
          const ciphertext = () => backend.decodeBase64UrlRange(input, start, end, CIPHERTEXT);
          return readMembers(context, envelope, options, ciphertext, ciphertext);
        }
      }
    } catch {
      // Read whole below, which refuses it with the error it always gave.
    }
  }
  const envelope = readEnvelope(input);
  const ciphertext = () => context.backend.decodeBase64Url(envelope.ciphertext, CIPHERTEXT);
  return readMembers(context, envelope, options, ciphertext, ciphertext);
}

const CIPHERTEXT = 'The "ciphertext" member';

/**
 * `readForOpening` of a parsed envelope. `readCiphertext` checks (and may decode) the ciphertext
 * in its turn among the members; `ciphertextOf` gives its bytes once every member has passed.
 */
function readMembers(
  { backend, protectedHeaderOf, aadBytes }: CodecContext,
  envelope: Envelope,
  options: DecryptOptions,
  readCiphertext: () => Uint8Array | undefined,
  ciphertextOf: () => Uint8Array,
) {
  const policy = options.missingProtected ?? 'infer';
  const hasProtected = envelope.protected !== undefined;
  assertProtectedPolicy(hasProtected, policy);
  const protectedHeader = hasProtected ? protectedHeaderOf(envelope.protected!) : undefined;
  const header = jointHeader(protectedHeader, envelope);
  implyAlgorithm(header, hasProtected);
  assertSupportedHeader(header);
  const kid = pickKid(envelope.kid, header);

  const iv = backend.decodeBase64Url(envelope.iv, 'The "iv" member');
  if (iv.length !== IV_BYTES) throw invalid(`The IV must be ${IV_BYTES} bytes for ${ENC}, got ${iv.length}.`);
  const read = readCiphertext();
  const tag = backend.decodeBase64Url(envelope.tag, 'The "tag" member');
  if (envelope.aad !== undefined) backend.decodeBase64Url(envelope.aad, 'The "aad" member');
  const candidates = protectedCandidates(envelope.protected, policy);
  const aads = candidates.map((text) => aadBytes(text, envelope.aad));
  const ciphertext = read ?? ciphertextOf();
  return { header, kid, hasProtected, iv, ciphertext, tag, aads };
}

type Opening = ReturnType<typeof readForOpening>;

/** The synchronous half of opening: the key is known and the back end has synchronous crypto. */
function openReadNow({ backend, prepare }: CodecContext, opening: Opening, key: KeyInput): DecryptResult {
  const { header, kid, hasProtected, iv, ciphertext, tag, aads } = opening;
  const prepared = prepare(key) as PreparedKey;
  const { plaintext, aadIndex } = openSync(backend, backend.sync!, prepared, aads, iv, ciphertext, tag);
  return { plaintext, header, kid, headerSource: headerSourceOf(hasProtected, aadIndex) };
}

async function openReadLater(
  { backend, prepare }: CodecContext,
  opening: Opening,
  key: KeyInput,
): Promise<DecryptResult> {
  const { header, kid, hasProtected, iv, ciphertext, tag, aads } = opening;
  const prepared = await prepare(key);
  const { plaintext, aadIndex } = await open(backend, prepared, aads, iv, ciphertext, tag);
  return { plaintext, header, kid, headerSource: headerSourceOf(hasProtected, aadIndex) };
}

function openWith(
  context: CodecContext,
  opening: Opening,
  key: KeyInput | undefined,
): DecryptResult | Promise<DecryptResult> {
  if (key === undefined) throw unknownKid(opening.kid);
  return context.backend.sync ? openReadNow(context, opening, key) : openReadLater(context, opening, key);
}

/**
 * Opens an envelope at once where nothing needs waiting for: synchronous crypto (node:crypto) and
 * a key that is given or resolved without a promise (a key map). Otherwise a promise. May throw;
 * every caller below is async, so a throw reaches users as a rejection.
 */
function openEnvelope(
  context: CodecContext,
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions,
): DecryptResult | Promise<DecryptResult> {
  const opening = readForOpening(context, input, options);
  const found = typeof key === 'function' ? key(opening.kid, opening.header) : key;
  return isPromiseLike(found)
    ? Promise.resolve(found).then((resolved) => openWith(context, opening, resolved))
    : openWith(context, opening, found);
}

export async function openDetailed(
  context: CodecContext,
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions,
): Promise<DecryptResult> {
  return openEnvelope(context, input, key, options);
}

export async function openBytes(
  context: CodecContext,
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const result = openEnvelope(context, input, key, options);
  return (result instanceof Promise ? await result : result).plaintext;
}

export async function openJson<T>(
  context: CodecContext,
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions,
): Promise<T> {
  const result = openEnvelope(context, input, key, options);
  const { plaintext } = result instanceof Promise ? await result : result;
  const text = decodeUtf8(plaintext, 'The decrypted payload');
  try {
    return JSON.parse(text) as T;
  } catch {
    throw invalid('The decrypted payload is not JSON. Use decrypt() to read other content.');
  }
}

export async function openFile(
  context: CodecContext,
  input: EnvelopeInput,
  key: KeyInput | KeyResolver,
  options: DecryptOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const result = openEnvelope(context, input, key, options);
  return parseFilePayload(context.backend, (result instanceof Promise ? await result : result).plaintext);
}
