import { ALG, ENC, type JoseHeader, type KeyInput, type KeyResolver, keyring } from '@jwe-transport/codec';

/** Keys by kid (`{ kid: sharedKey }`) or a resolver function, sync or async, for rotation. */
export type KeysOption = Readonly<Record<string, KeyInput>> | KeyResolver;

/** A resolver that also remembers which key it handed out, so the answer uses the same key. */
export interface RecordingResolver {
  resolve: KeyResolver;
  readonly used: { key: KeyInput; kid: string | undefined; header: JoseHeader } | undefined;
}

export function toResolver(keys: KeysOption, defaultKid: string | undefined): KeyResolver {
  if (typeof keys === 'function') return keys;
  if (keys === null || typeof keys !== 'object' || Object.keys(keys).length === 0) {
    throw new TypeError(
      'jwe: the "keys" option must be a non-empty { kid: sharedKey } map or a resolver function.',
    );
  }
  // keyring() checks every key and the defaultKid up front. The lookup itself hands back the
  // caller's own values: the codec caches the prepared form of shared-key strings, not of bytes.
  keyring(keys, defaultKid === undefined ? {} : { defaultKid });
  const entries = new Map(Object.entries(keys));
  const fallback = defaultKid ?? (entries.size === 1 ? [...entries.keys()][0] : undefined);
  return (kid) => {
    const chosen = kid ?? fallback;
    return chosen === undefined ? undefined : entries.get(chosen);
  };
}

export function recordingResolver(resolver: KeyResolver): RecordingResolver {
  let used: RecordingResolver['used'];
  return {
    // Stays synchronous for synchronous resolvers (key maps): no promise per request.
    resolve: (kid, header) => {
      const record = (key: KeyInput | undefined) => {
        if (key !== undefined) used = { key, kid, header };
        return key;
      };
      const key = resolver(kid, header);
      return key instanceof Promise ? key.then(record) : record(key);
    },
    get used() {
      return used;
    },
  };
}

const ASSUMED_HEADER: JoseHeader = { alg: ALG, enc: ENC };

/** The key for answering a request that was not encrypted (the `'always'` response mode). */
export async function keyForKid(
  resolver: KeyResolver,
  kid: string | undefined,
): Promise<KeyInput | undefined> {
  return resolver(kid, kid === undefined ? ASSUMED_HEADER : { ...ASSUMED_HEADER, kid });
}
