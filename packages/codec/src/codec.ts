import type { CryptoBackend, PreparedKey } from './backend/types.js';
import { open, openSync, seal, sealPiecesSync, sealSync } from './cbc-hmac.js';
import { type Envelope, type EnvelopeInput, readEnvelope } from './envelope.js';
import { invalid, JweError } from './errors.js';
import { buildFilePayload, filePayloadLength, filePayloadPieces, parseFilePayload } from './file-payload.js';
import { assertSupportedHeader, decodeUtf8, ENC, type JoseHeader, PROTECTED_COMPACT } from './header.js';
import {
  assertProtectedPolicy,
  type HeaderSource,
  headerSourceOf,
  implyAlgorithm,
  jointHeader,
  type MissingProtectedPolicy,
  pickKid,
  protectedCandidates,
} from './header-rules.js';
import { type KeyInput, type KeyResolver, unknownKid } from './key.js';
import { paddedLength } from './pkcs7.js';
import { reusableDerivations } from './reusable-derivations.js';
import { IV_BYTES } from './sizes.js';

export type { HeaderSource, MissingProtectedPolicy } from './header-rules.js';

/** Promises and other thenables a key resolver may return. */
const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as PromiseLike<T> | null | undefined)?.then === 'function';

export interface EncryptOptions {
  /** Key id sent as the envelope's top-level `kid` member (not authenticated; it only selects a key). */
  kid?: string;
  /**
   * Fixes the IV instead of drawing a fresh random one. Only for reproducible test vectors:
   * reusing an IV with the same key leaks plaintext relations.
   */
  unsafeFixedIv?: Uint8Array;
}

export interface DecryptOptions {
  missingProtected?: MissingProtectedPolicy;
}

export interface DecryptResult {
  plaintext: Uint8Array<ArrayBuffer>;
  /** The joint JOSE header (protected plus unprotected parameters), or the assumed one. */
  header: JoseHeader;
  kid: string | undefined;
  headerSource: HeaderSource;
}

/**
 * The codec bound to one crypto back end; the package entry points bind it to node:crypto or
 * WebCrypto.
 */
export function bindCodec(backend: CryptoBackend) {
  const { prepare, protectedHeaderOf, aadBytes } = reusableDerivations(backend);
  const defaultAad = aadBytes(PROTECTED_COMPACT, undefined);

  /** Checks `encrypt`'s arguments and returns the IV to use. */
  function encryptInputs(plaintext: unknown, options: EncryptOptions, caller: string): Uint8Array {
    if (typeof plaintext !== 'string' && !(plaintext instanceof Uint8Array))
      throw new TypeError(`${caller}: plaintext must be a Uint8Array or a string.`);
    if (options.kid !== undefined && typeof options.kid !== 'string') {
      throw new TypeError(`${caller}: kid must be a string.`);
    }
    const iv = options.unsafeFixedIv ?? backend.randomBytes(IV_BYTES);
    if (iv.length !== IV_BYTES) throw new TypeError(`${caller}: the IV must be ${IV_BYTES} bytes.`);
    return iv;
  }

  const fitsOneString = (plaintextLength: number) =>
    backend.maxStringLength === undefined ||
    Math.ceil((paddedLength(plaintextLength) / 3) * 4) <= backend.maxStringLength;

  /**
   * Refuses, before any work, a plaintext whose envelope's ciphertext would not fit in one string
   * (V8's limit is 2^29 - 24 characters, about 288 MiB of file): the runtime's own error would come
   * only after the file had been encoded, and would not say what to do instead.
   */
  function assertFitsOneString(plaintextLength: number, what: string, stream: string): void {
    if (!fitsOneString(plaintextLength)) {
      throw new RangeError(
        `${what} makes an envelope longer than the longest string this runtime can hold ` +
          `(${backend.maxStringLength} characters). Use ${stream}() for content this large.`,
      );
    }
  }

  function envelopeOf(
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

  /**
   * `encrypt` without a promise, for places that cannot wait (a ky `stringifyJson`, a sync
   * logger). Only back ends with synchronous crypto have it: node:crypto does, WebCrypto does not.
   */
  function encryptSync(
    plaintext: Uint8Array | string,
    key: KeyInput,
    options: EncryptOptions = {},
  ): Envelope {
    return sealNow(plaintext, key, options, 'encryptSync');
  }

  /** `encryptSync`'s work; `caller` names the public function in errors. */
  function sealNow(
    plaintext: Uint8Array | string,
    key: KeyInput,
    options: EncryptOptions,
    caller: string,
  ): Envelope {
    const sync = backend.sync;
    if (!sync) {
      throw new JweError(
        'ERR_JWE_UNSUPPORTED',
        `${caller} needs synchronous crypto, which the ${backend.name} back end does not have: use encrypt().`,
      );
    }
    const iv = encryptInputs(plaintext, options, caller);
    // Text goes to the cipher as it is (node:crypto writes its UTF-8 straight into the padded
    // blocks); only text that might be near the size limit is encoded first to measure it.
    let input = plaintext;
    if (typeof input === 'string' && !fitsOneString(input.length * 3)) input = backend.utf8Bytes(input);
    if (typeof input !== 'string') {
      assertFitsOneString(input.length, `${caller}: a plaintext of ${input.length} bytes`, 'encryptStream');
    }
    const prepared = prepare(key) as PreparedKey;
    const { ciphertext, tag } = sealSync(sync, prepared, iv, input, defaultAad);
    return envelopeOf(iv, ciphertext, tag, options.kid);
  }

  async function encrypt(
    plaintext: Uint8Array | string,
    key: KeyInput,
    options: EncryptOptions = {},
  ): Promise<Envelope> {
    // With synchronous primitives, one promise for the whole call is all the asynchrony needed.
    if (backend.sync) return sealNow(plaintext, key, options, 'encrypt');
    const iv = encryptInputs(plaintext, options, 'encrypt');
    const bytes = typeof plaintext === 'string' ? backend.utf8Bytes(plaintext) : plaintext;
    const prepared = await prepare(key);
    const { ciphertext, tag } = await seal(backend, prepared, iv, bytes, defaultAad);
    return envelopeOf(iv, ciphertext, tag, options.kid);
  }

  async function encryptJson(value: unknown, key: KeyInput, options?: EncryptOptions): Promise<Envelope> {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError('encryptJson: the value has no JSON representation.');
    // Sealing here rather than awaiting encrypt() saves a promise and its microtask hops.
    return backend.sync ? sealNow(text, key, options ?? {}, 'encrypt') : encrypt(text, key, options);
  }

  async function encryptFile(
    bytes: Uint8Array,
    key: KeyInput,
    options: EncryptOptions = {},
  ): Promise<Envelope> {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('encryptFile: the file must be a Uint8Array.');
    const payloadLength = filePayloadLength(bytes.length);
    assertFitsOneString(payloadLength, `encryptFile: a file of ${bytes.length} bytes`, 'encryptFileStream');
    const iv = encryptInputs(bytes, options, 'encryptFile');
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
    return envelopeOf(iv, ciphertext, tag, options.kid);
  }

  /**
   * Everything decryption checks before it touches a key or any crypto: the envelope's shape, the
   * header rules, and strict base64url of every member.
   */
  function readForOpening(input: EnvelopeInput, options: DecryptOptions) {
    const envelope = readEnvelope(input);
    const policy = options.missingProtected ?? 'infer';
    const hasProtected = envelope.protected !== undefined;
    assertProtectedPolicy(hasProtected, policy);
    const protectedHeader = hasProtected ? protectedHeaderOf(envelope.protected!) : undefined;
    const header = jointHeader(protectedHeader, envelope);
    implyAlgorithm(header, hasProtected);
    assertSupportedHeader(header);
    const kid = pickKid(envelope.kid, header);

    const iv = backend.decodeBase64Url(envelope.iv, 'The "iv" member');
    if (iv.length !== IV_BYTES)
      throw invalid(`The IV must be ${IV_BYTES} bytes for ${ENC}, got ${iv.length}.`);
    const ciphertext = backend.decodeBase64Url(envelope.ciphertext, 'The "ciphertext" member');
    const tag = backend.decodeBase64Url(envelope.tag, 'The "tag" member');
    if (envelope.aad !== undefined) backend.decodeBase64Url(envelope.aad, 'The "aad" member');
    const candidates = protectedCandidates(envelope.protected, policy);
    const aads = candidates.map((text) => aadBytes(text, envelope.aad));
    return { header, kid, hasProtected, iv, ciphertext, tag, aads };
  }

  type Opening = ReturnType<typeof readForOpening>;

  /** The synchronous half of opening: the key is known and the back end has synchronous crypto. */
  function openReadNow(opening: Opening, key: KeyInput): DecryptResult {
    const { header, kid, hasProtected, iv, ciphertext, tag, aads } = opening;
    const prepared = prepare(key) as PreparedKey;
    const { plaintext, aadIndex } = openSync(backend, backend.sync!, prepared, aads, iv, ciphertext, tag);
    return { plaintext, header, kid, headerSource: headerSourceOf(hasProtected, aadIndex) };
  }

  async function openReadLater(opening: Opening, key: KeyInput): Promise<DecryptResult> {
    const { header, kid, hasProtected, iv, ciphertext, tag, aads } = opening;
    const prepared = await prepare(key);
    const { plaintext, aadIndex } = await open(backend, prepared, aads, iv, ciphertext, tag);
    return { plaintext, header, kid, headerSource: headerSourceOf(hasProtected, aadIndex) };
  }

  function openWith(opening: Opening, key: KeyInput | undefined): DecryptResult | Promise<DecryptResult> {
    if (key === undefined) throw unknownKid(opening.kid);
    return backend.sync ? openReadNow(opening, key) : openReadLater(opening, key);
  }

  /**
   * Opens an envelope at once where nothing needs waiting for: synchronous crypto (node:crypto) and
   * a key that is given or resolved without a promise (a key map). Otherwise a promise. May throw;
   * every public caller is async, so a throw reaches users as a rejection.
   */
  function openEnvelope(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options: DecryptOptions,
  ): DecryptResult | Promise<DecryptResult> {
    const opening = readForOpening(input, options);
    const found = typeof key === 'function' ? key(opening.kid, opening.header) : key;
    return isPromiseLike(found)
      ? Promise.resolve(found).then((resolved) => openWith(opening, resolved))
      : openWith(opening, found);
  }

  async function decrypt(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options: DecryptOptions = {},
  ): Promise<Uint8Array<ArrayBuffer>> {
    const result = openEnvelope(input, key, options);
    return (result instanceof Promise ? await result : result).plaintext;
  }

  async function decryptDetailed(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options: DecryptOptions = {},
  ): Promise<DecryptResult> {
    return openEnvelope(input, key, options);
  }

  async function decryptJson<T = unknown>(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options?: DecryptOptions,
  ): Promise<T> {
    const result = openEnvelope(input, key, options ?? {});
    const { plaintext } = result instanceof Promise ? await result : result;
    const text = decodeUtf8(plaintext, 'The decrypted payload');
    try {
      return JSON.parse(text) as T;
    } catch {
      throw invalid('The decrypted payload is not JSON. Use decrypt() to read other content.');
    }
  }

  async function decryptFile(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options?: DecryptOptions,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const result = openEnvelope(input, key, options ?? {});
    return parseFilePayload(backend, (result instanceof Promise ? await result : result).plaintext);
  }

  return {
    encrypt,
    encryptSync,
    encryptJson,
    encryptFile,
    decrypt,
    decryptJson,
    decryptFile,
    decryptDetailed,
  };
}

export type Codec = ReturnType<typeof bindCodec>;
