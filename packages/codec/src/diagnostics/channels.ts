/** The TracingChannel of envelopes being opened: requests on a server, responses on a client. */
export const OPEN_CHANNEL = 'jwe-transport:open';
/** The TracingChannel of envelopes being sealed: responses on a server, requests on a client. */
export const SEAL_CHANNEL = 'jwe-transport:seal';

export type JweChannelName = typeof OPEN_CHANNEL | typeof SEAL_CHANNEL;

/** Longest `kid` a context carries; longer ones are cut (the `kid` is not authenticated). */
export const TRACE_KID_MAX = 64;

/**
 * `opened`/`sealed`: done. `refused`: the input was refused (a malformed or unauthenticated
 * envelope, an unknown `kid`, a body that cannot be sealed): the peer's or the caller's doing.
 * `failed`: this side's own problem (an unusable key, a key resolver that threw, a 5xx).
 */
export type JweTraceOutcome = 'opened' | 'sealed' | 'refused' | 'failed';

/**
 * The message every event of `jwe-transport:open` and `jwe-transport:seal` carries; the same
 * object from `start` to `asyncEnd`, filled in as the operation goes. It never holds key
 * material or plaintext, and has no `result` (results hold plaintext).
 */
export interface JweTraceContext {
  readonly operation: 'open' | 'seal';
  /** Which end of the exchange this process is. */
  readonly side: 'server' | 'client';
  /**
   * The envelope's `kid`, cut to {@link TRACE_KID_MAX} characters. Unauthenticated: anyone can
   * send any `kid`, so never use it as a metric label unless your keyring knows it.
   */
  kid: string | undefined;
  /** Size of the envelope on the wire (its JSON text), when known. */
  envelopeBytes: number | undefined;
  /** Size of the plaintext (for file envelopes: of the file), when known. */
  plaintextBytes: number | undefined;
  /** True when the envelope is streamed: sizes and late failures are then not reported here. */
  streamed: boolean;
  /** Set when the operation is over (by `end` for synchronous work, by `asyncStart` otherwise). */
  outcome: JweTraceOutcome | undefined;
  /** The error's stable `code` on failure. */
  code: string | undefined;
  /** The error on failure, as every TracingChannel sets it; its message has no key or plaintext. */
  error?: unknown;
}
