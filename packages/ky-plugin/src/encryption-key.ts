import { ALG, ENC, type JoseHeader, JweError, type KeyInput } from '@jwe-transport/codec';
import type { ResolvedOptions } from './options.js';

/** The key for a request envelope: the configured key, or what the resolver returns for `kid`. */
export async function requestKey(options: ResolvedOptions): Promise<KeyInput> {
  if (typeof options.key !== 'function') return options.key;
  const header: JoseHeader = { alg: ALG, enc: ENC };
  if (options.kid !== undefined) header.kid = options.kid;
  const key = await options.key(options.kid, header);
  if (key === undefined) {
    throw new JweError(
      'ERR_KEY_UNKNOWN',
      options.kid === undefined
        ? 'The key resolver returned no key for requests without a kid. Set "kid" or give the resolver a default key.'
        : `The key resolver returned no key for kid ${JSON.stringify(options.kid)}, so the request cannot be encrypted.`,
    );
  }
  return key;
}
