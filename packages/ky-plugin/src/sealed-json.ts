import type { JweClient } from '@jwe-transport/client-core';
import { decrypt } from '@jwe-transport/codec';

/*
 * ky turns the `json` option into the body text with `stringifyJson` and builds its Request from
 * it. Sealing the envelope right there means the request that ky builds already carries it, so
 * `beforeRequest` only adds the header instead of building a second Request (the costliest part
 * of a small encrypted call). The hook still decides: a call opted out gets its plaintext back.
 */

/** How many sealed bodies may wait for their `beforeRequest`; calls that never start are overwritten, oldest first. */
const WAITING_LIMIT = 256;

export interface JsonSealer {
  /** ky's `stringifyJson` option: the envelope text of the JSON text. */
  stringifyJson(data: unknown): string;
  /** True, once, for a body that `stringifyJson` sealed and no hook has claimed yet. */
  claim(body: unknown): body is string;
  /** The JSON text inside a claimed body, for a call that must go out unencrypted after all. */
  plaintextOf(body: string): Promise<string>;
}

/**
 * A sealer for ky's `stringifyJson`, or `undefined` where sealing cannot happen synchronously:
 * a key resolver, a request filter (it needs the built request), or the WebCrypto build.
 */
export function jsonSealer(
  client: JweClient,
  stringify: (data: unknown) => string = JSON.stringify,
): JsonSealer | undefined {
  const { key, encrypt } = client.options;
  if (encrypt !== 'all' || typeof key === 'function' || !client.canSealSync) {
    return undefined;
  }
  // Envelope texts only: every one has a fresh IV, so none is ever mistaken for another call's body.
  // A ring searched newest first, not a Set: hashing each 1.4 KB text for a Set costs more than
  // the few comparisons a search makes, since a call's hook runs right after its body is sealed.
  const waiting: (string | undefined)[] = new Array(WAITING_LIMIT).fill(undefined);
  let newest = 0;
  return {
    stringifyJson(data) {
      const text = stringify(data);
      // JSON.stringify(undefined) has no text; leave that to ky, as without the plugin.
      if (typeof text !== 'string') return text;
      const envelope = client.sealJsonSync(text)!;
      newest = (newest + 1) % WAITING_LIMIT;
      waiting[newest] = envelope;
      return envelope;
    },
    claim(body): body is string {
      if (typeof body !== 'string') return false;
      for (let age = 0, slot = newest; age < WAITING_LIMIT; age++, slot = (slot || WAITING_LIMIT) - 1) {
        if (waiting[slot] === body) {
          waiting[slot] = undefined;
          return true;
        }
      }
      return false;
    },
    async plaintextOf(body) {
      return new TextDecoder().decode(await decrypt(body, key));
    },
  };
}
