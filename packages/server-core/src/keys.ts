import {
  ALG,
  deriveKey,
  ENC,
  isJweError,
  type JoseHeader,
  JweError,
  type KeyInput,
  type KeyResolver,
} from '@jwe-transport/codec';

/** Keys by kid (`{ kid: sharedKey }`) or a resolver function, sync or async, for rotation. */
export type KeysOption = Readonly<Record<string, KeyInput>> | KeyResolver;

const invalid = (message: string) => new JweError('ERR_KEY_INVALID', message);

/**
 * Names the kid whose configured key is unusable, and says why without showing any of it: an
 * undefined or empty key is nearly always an environment variable that is not set. The error is
 * the codec's `ERR_KEY_INVALID`, as the clients raise for a bad key.
 */
function checkKey(kid: string, key: unknown): void {
  const named = `jwe: kid '${kid}'`;
  if (key === undefined || key === null) {
    throw invalid(`${named}: the key is ${key}; is the environment variable set?`);
  }
  if (key === '') throw invalid(`${named}: the key is empty; is the environment variable set?`);
  if (key instanceof Uint8Array) {
    if (key.length !== 32) {
      throw invalid(`${named}: a raw key must be 32 bytes, this one is ${key.length} bytes.`);
    }
    return;
  }
  if (typeof key !== 'string') {
    throw invalid(`${named}: the key must be a 16-character string or 32 bytes, not ${typeof key}.`);
  }
  try {
    deriveKey(key);
  } catch (error) {
    // The codec's message gives lengths and types only, never key material.
    if (isJweError(error)) throw invalid(`${named}: ${error.message}`);
    throw error;
  }
}

export function toResolver(keys: KeysOption, defaultKid: string | undefined): KeyResolver {
  if (typeof keys === 'function') return keys;
  if (keys === null || typeof keys !== 'object' || Object.keys(keys).length === 0) {
    throw new TypeError(
      'jwe: the "keys" option must be a non-empty { kid: sharedKey } map or a resolver function.',
    );
  }
  for (const [kid, key] of Object.entries(keys)) checkKey(kid, key);
  const entries = new Map(Object.entries(keys));
  if (defaultKid !== undefined && !entries.has(defaultKid)) {
    throw new TypeError(`jwe: "defaultKid" '${defaultKid}' is not one of the kids in "keys".`);
  }
  const fallback = defaultKid ?? (entries.size === 1 ? [...entries.keys()][0] : undefined);
  return (kid) => {
    const chosen = kid ?? fallback;
    return chosen === undefined ? undefined : entries.get(chosen);
  };
}

/** The key that opened a request, kept to seal its answer; never reachable from handlers. */
export interface ResponseKey {
  key: KeyInput;
  kid: string | undefined;
}

/** A resolver that also remembers which key it handed out, so the answer uses the same key. */
export interface RecordingResolver {
  resolve: KeyResolver;
  readonly used: { key: KeyInput; kid: string | undefined; header: JoseHeader } | undefined;
  /** The kid the envelope asked for (not authenticated: for logs only), known or not. */
  readonly asked: string | undefined;
}

/**
 * A class rather than an object with getters: adapters make one per request, and an object
 * literal with accessors costs several allocations each time (measured in the Fastify bench).
 */
class KeyRecorder implements RecordingResolver {
  used: RecordingResolver['used'];
  asked: string | undefined;
  // Stays synchronous for synchronous resolvers (key maps): no promise per request.
  readonly resolve: KeyResolver;

  constructor(resolver: KeyResolver) {
    this.resolve = (kid, header) => {
      this.asked = kid;
      const key = resolver(kid, header);
      return key instanceof Promise
        ? key.then((found) => this.#record(found, kid, header))
        : this.#record(key, kid, header);
    };
  }

  #record(key: KeyInput | undefined, kid: string | undefined, header: JoseHeader): KeyInput | undefined {
    if (key !== undefined) this.used = { key, kid, header };
    return key;
  }
}

export function recordingResolver(resolver: KeyResolver): RecordingResolver {
  return new KeyRecorder(resolver);
}

const ASSUMED_HEADER: JoseHeader = { alg: ALG, enc: ENC };

/** The key for a kid outside any envelope: answers to plain requests (`responses: 'always'`). */
export async function keyForKid(
  resolver: KeyResolver,
  kid: string | undefined,
): Promise<KeyInput | undefined> {
  return resolver(kid, kid === undefined ? ASSUMED_HEADER : { ...ASSUMED_HEADER, kid });
}
