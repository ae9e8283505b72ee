import type { JweClient } from '@jwe-transport/client-core/adapter';

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
  /**
   * The JSON text of a body that `stringifyJson` sealed and no hook has claimed yet (once), else
   * `undefined`. The caller's plaintext stays with the call: a retry is sealed afresh from it, and
   * a call that must go out unencrypted after all sends it.
   */
  claim(body: unknown): string | undefined;
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
  interface Waiting {
    envelope: string;
    text: string;
  }
  if (encrypt !== 'all' || typeof key === 'function' || !client.canSealSync) {
    return undefined;
  }
  // Envelope texts only: every one has a fresh IV, so none is ever mistaken for another call's body.
  // A ring searched newest first, not a Set: hashing each 1.4 KB text for a Set costs more than
  // the few comparisons a search makes, since a call's hook runs right after its body is sealed.
  const waiting: (Waiting | undefined)[] = new Array(WAITING_LIMIT).fill(undefined);
  let newest = 0;
  return {
    stringifyJson(data) {
      const text = stringify(data);
      // JSON.stringify(undefined) has no text; leave that to ky, as without the plugin.
      if (typeof text !== 'string') return text;
      const envelope = client.sealJsonSync(text)!;
      newest = (newest + 1) % WAITING_LIMIT;
      waiting[newest] = { envelope, text };
      return envelope;
    },
    claim(body) {
      if (typeof body !== 'string') return undefined;
      for (let age = 0, slot = newest; age < WAITING_LIMIT; age++, slot = (slot || WAITING_LIMIT) - 1) {
        const entry = waiting[slot];
        if (entry?.envelope === body) {
          waiting[slot] = undefined;
          return entry.text;
        }
      }
      return undefined;
    },
  };
}
