import { ALG, ENC, type JoseHeader, type KeyInput, type KeyResolver } from '@jwe-transport/codec';
import { JweRequestError } from './errors.js';

const KEY_BYTES = 32;
const SHARED_KEY_BYTES = KEY_BYTES / 2;

/** `kid "abc"` or `no kid`, for messages. */
export function describeKid(kid: string | undefined): string {
  return kid === undefined ? 'no kid' : `kid ${JSON.stringify(kid)}`;
}

/** What is wrong with a key, as "16 bytes, expected 32", or `undefined` when it is usable. */
export function keyProblem(key: unknown): string | undefined {
  if (typeof key === 'string') {
    const bytes = new TextEncoder().encode(key).length;
    return bytes === SHARED_KEY_BYTES
      ? undefined
      : `a shared-key string of ${bytes} bytes of UTF-8, expected ${SHARED_KEY_BYTES}`;
  }
  if (key instanceof Uint8Array) {
    return key.length === KEY_BYTES ? undefined : `${key.length} raw key bytes, expected ${KEY_BYTES}`;
  }
  return `a ${key === null ? 'null' : typeof key}, expected a ${SHARED_KEY_BYTES}-character shared-key string or ${KEY_BYTES} bytes`;
}

export function checkStaticKey(key: unknown, kid: string | undefined): void {
  const problem = keyProblem(key);
  if (problem !== undefined) {
    throw new JweRequestError('ERR_KEY_INVALID', `jwe: the key (${describeKid(kid)}) is ${problem}.`);
  }
}

/** The key that seals a request: the configured key, or what the resolver returns for `kid`. */
export async function requestKey(options: {
  readonly key: KeyInput | KeyResolver;
  readonly kid: string | undefined;
}): Promise<KeyInput> {
  const { key, kid } = options;
  if (typeof key !== 'function') return key;
  const header: JoseHeader = { alg: ALG, enc: ENC };
  if (kid !== undefined) header.kid = kid;
  const resolved = await key(kid, header);
  if (resolved === undefined) {
    throw new JweRequestError(
      'ERR_KEY_UNKNOWN',
      `The key resolver returned no key for ${describeKid(kid)}, so the request was not sent. ` +
        (kid === undefined
          ? 'Set "kid", or give the resolver a default key.'
          : 'Add the key to the resolver.'),
    );
  }
  const problem = keyProblem(resolved);
  if (problem !== undefined) {
    throw new JweRequestError(
      'ERR_KEY_INVALID',
      `The key resolver returned ${problem} for ${describeKid(kid)}, so the request was not sent.`,
    );
  }
  return resolved;
}
