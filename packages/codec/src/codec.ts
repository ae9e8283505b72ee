import type { CryptoBackend, PreparedKey } from './backend/types.js';
import { IV_BYTES, open, seal } from './cbc-hmac.js';
import { type Envelope, type EnvelopeInput, readEnvelope } from './envelope.js';
import { invalid } from './errors.js';
import { buildFilePayload, parseFilePayload } from './file-payload.js';
import {
  ALG,
  assertSupportedHeader,
  decodeUtf8,
  ENC,
  type JoseHeader,
  PROTECTED_COMPACT,
  PROTECTED_SPACED,
  parseProtectedHeader,
} from './header.js';
import { type KeyInput, type KeyResolver, keyBytes, unknownKid } from './key.js';

export interface EncryptOptions {
  /** Key id sent as the envelope's top-level `kid` member (not authenticated; it only selects a key). */
  kid?: string;
  /**
   * Fixes the IV instead of drawing a fresh random one. Only for reproducible test vectors:
   * reusing an IV with the same key leaks plaintext relations.
   */
  unsafeFixedIv?: Uint8Array;
}

/**
 * How to read an envelope that has no `protected` member (the service's documented responses):
 * - `'infer'` (default): try RFC 7516's empty AAD first, then the tag over each of the two header
 *   encodings seen in the wild; the result's `headerSource` says which one authenticated.
 * - `'rfc'`: only the RFC reading (empty AAD).
 * - `'reject'`: refuse such envelopes with `ERR_JWE_INVALID`.
 */
export type MissingProtectedPolicy = 'infer' | 'rfc' | 'reject';

export interface DecryptOptions {
  missingProtected?: MissingProtectedPolicy;
}

/** Which bytes the tag authenticated as the protected header. */
export type HeaderSource =
  /** The envelope's own `protected` member (the normal case). */
  | 'protected'
  /** No protected header; empty AAD, as RFC 7516 defines it. */
  | 'none'
  /** No `protected` member, but the tag covers `{"alg":"dir","enc":"A128CBC-HS256"}`. */
  | 'assumed-compact'
  /** No `protected` member, but the tag covers `{"alg": "dir", "enc": "A128CBC-HS256"}`. */
  | 'assumed-spaced';

export interface DecryptResult {
  plaintext: Uint8Array;
  /** The joint JOSE header (protected plus unprotected parameters), or the assumed one. */
  header: JoseHeader;
  kid: string | undefined;
  headerSource: HeaderSource;
}

const ASSUMED_SOURCES: readonly HeaderSource[] = ['none', 'assumed-compact', 'assumed-spaced'];
const ASSUMED_PROTECTED = ['', PROTECTED_COMPACT, PROTECTED_SPACED];

function jointHeader(
  protectedHeader: Record<string, unknown> | undefined,
  envelope: Envelope,
): Record<string, unknown> {
  const joint: Record<string, unknown> = { ...protectedHeader };
  for (const part of [envelope.unprotected, envelope.header]) {
    if (!part) continue;
    for (const [name, value] of Object.entries(part)) {
      if (name === '__proto__')
        throw invalid('An unprotected header contains a forbidden member "__proto__".');
      if (Object.hasOwn(joint, name))
        throw invalid(`The header parameter "${name}" appears in more than one header.`);
      joint[name] = value;
    }
  }
  return joint;
}

function pickKid(envelope: Envelope, header: Record<string, unknown>): string | undefined {
  const fromHeader = header.kid as string | undefined;
  if (envelope.kid !== undefined && fromHeader !== undefined && envelope.kid !== fromHeader) {
    throw invalid('The envelope names two different key ids (top-level "kid" and header "kid").');
  }
  return envelope.kid ?? fromHeader;
}

async function resolveKey(
  key: KeyInput | KeyResolver,
  kid: string | undefined,
  header: JoseHeader,
): Promise<KeyInput> {
  if (typeof key !== 'function') return key;
  const resolved = await key(kid, header);
  if (resolved === undefined) throw unknownKid(kid);
  return resolved;
}

const PREPARED_CACHE_LIMIT = 64;

/** The codec bound to one crypto back end; the package entry points bind it to node:crypto or WebCrypto. */
export function bindCodec(backend: CryptoBackend) {
  // Deriving and importing a key costs more than encrypting 1 KiB; most apps use a handful of
  // shared-key strings, so remember the prepared form of recent ones.
  const preparedByString = new Map<string, PreparedKey | Promise<PreparedKey>>();
  const prepare = (key: KeyInput): PreparedKey | Promise<PreparedKey> => {
    if (typeof key !== 'string') return backend.prepareKey(keyBytes(key));
    let prepared = preparedByString.get(key);
    if (prepared === undefined) {
      prepared = backend.prepareKey(keyBytes(key));
      if (preparedByString.size >= PREPARED_CACHE_LIMIT) {
        preparedByString.delete(preparedByString.keys().next().value as string);
      }
      preparedByString.set(key, prepared);
    }
    return prepared;
  };

  // Nearly every envelope carries one of a few protected headers; parsing is cheap but not free at
  // 1 KiB. Only flat headers are kept, so no caller can reach a cached object through a nested value.
  const headersByText = new Map<string, Readonly<Record<string, unknown>>>();
  const protectedHeaderOf = (text: string): Readonly<Record<string, unknown>> => {
    const cached = headersByText.get(text);
    if (cached) return cached;
    const header = parseProtectedHeader(backend.decodeBase64Url(text, 'The "protected" member'));
    if (Object.values(header).every((value) => value === null || typeof value !== 'object')) {
      if (headersByText.size >= PREPARED_CACHE_LIMIT)
        headersByText.delete(headersByText.keys().next().value as string);
      headersByText.set(text, Object.freeze(header));
    }
    return header;
  };
  const aadBytes = (protectedText: string, aad: string | undefined) =>
    backend.latin1Bytes(aad === undefined ? protectedText : `${protectedText}.${aad}`);
  const defaultAad = aadBytes(PROTECTED_COMPACT, undefined);

  async function encrypt(
    plaintext: Uint8Array | string,
    key: KeyInput,
    options: EncryptOptions = {},
  ): Promise<Envelope> {
    const bytes = typeof plaintext === 'string' ? backend.utf8Bytes(plaintext) : plaintext;
    if (!(bytes instanceof Uint8Array))
      throw new TypeError('encrypt: plaintext must be a Uint8Array or a string.');
    if (options.kid !== undefined && typeof options.kid !== 'string') {
      throw new TypeError('encrypt: kid must be a string.');
    }
    const prepared = await prepare(key);
    const iv = options.unsafeFixedIv ?? backend.randomBytes(IV_BYTES);
    if (iv.length !== IV_BYTES) throw new TypeError(`encrypt: the IV must be ${IV_BYTES} bytes.`);
    const { ciphertext, tag } = await seal(backend, prepared, iv, bytes, defaultAad);
    const envelope: Envelope = {
      protected: PROTECTED_COMPACT,
      iv: backend.encodeBase64Url(iv),
      ciphertext: backend.encodeBase64Url(ciphertext),
      tag: backend.encodeBase64Url(tag),
    };
    if (options.kid !== undefined) envelope.kid = options.kid;
    return envelope;
  }

  function encryptJson(value: unknown, key: KeyInput, options?: EncryptOptions): Promise<Envelope> {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError('encryptJson: the value has no JSON representation.');
    return encrypt(text, key, options);
  }

  function encryptFile(bytes: Uint8Array, key: KeyInput, options?: EncryptOptions): Promise<Envelope> {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('encryptFile: the file must be a Uint8Array.');
    return encrypt(buildFilePayload(backend, bytes), key, options);
  }

  async function decryptDetailed(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options: DecryptOptions = {},
  ): Promise<DecryptResult> {
    const envelope = readEnvelope(input);
    const policy = options.missingProtected ?? 'infer';
    const hasProtected = envelope.protected !== undefined;
    if (!hasProtected && policy === 'reject') {
      throw invalid('The envelope has no "protected" header, and this decryptor is set to require one.');
    }
    const protectedHeader = hasProtected ? protectedHeaderOf(envelope.protected!) : undefined;
    const header = jointHeader(protectedHeader, envelope);
    // Without a protected header the algorithm is implied by the service's documentation.
    if (!hasProtected && header.alg === undefined && header.enc === undefined) {
      header.alg = ALG;
      header.enc = ENC;
    }
    assertSupportedHeader(header);
    const kid = pickKid(envelope, header);

    const iv = backend.decodeBase64Url(envelope.iv, 'The "iv" member');
    if (iv.length !== IV_BYTES)
      throw invalid(`The IV must be ${IV_BYTES} bytes for ${ENC}, got ${iv.length}.`);
    const ciphertext = backend.decodeBase64Url(envelope.ciphertext, 'The "ciphertext" member');
    const tag = backend.decodeBase64Url(envelope.tag, 'The "tag" member');
    if (envelope.aad !== undefined) backend.decodeBase64Url(envelope.aad, 'The "aad" member');

    const prepared = await prepare(await resolveKey(key, kid, header));
    const candidates = hasProtected
      ? [envelope.protected!]
      : policy === 'rfc'
        ? ASSUMED_PROTECTED.slice(0, 1)
        : ASSUMED_PROTECTED;
    const aads = candidates.map((text) => aadBytes(text, envelope.aad));
    const { plaintext, aadIndex } = await open(backend, prepared, aads, iv, ciphertext, tag);
    return {
      plaintext,
      header,
      kid,
      headerSource: hasProtected ? 'protected' : ASSUMED_SOURCES[aadIndex]!,
    };
  }

  async function decrypt(input: EnvelopeInput, key: KeyInput | KeyResolver, options?: DecryptOptions) {
    return (await decryptDetailed(input, key, options)).plaintext;
  }

  async function decryptJson<T = unknown>(
    input: EnvelopeInput,
    key: KeyInput | KeyResolver,
    options?: DecryptOptions,
  ): Promise<T> {
    const text = decodeUtf8(await decrypt(input, key, options), 'The decrypted payload');
    try {
      return JSON.parse(text) as T;
    } catch {
      throw invalid('The decrypted payload is not JSON. Use decrypt() to read other content.');
    }
  }

  async function decryptFile(input: EnvelopeInput, key: KeyInput | KeyResolver, options?: DecryptOptions) {
    return parseFilePayload(backend, await decrypt(input, key, options));
  }

  return { encrypt, encryptJson, encryptFile, decrypt, decryptJson, decryptFile, decryptDetailed };
}

export type Codec = ReturnType<typeof bindCodec>;
