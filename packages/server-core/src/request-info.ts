import type { HeaderSource, JoseHeader } from '@jwe-transport/codec';

/** What the server did with a request; adapters expose it to handlers and loggers. */
export interface JweRequestInfo {
  /** The request body arrived as a JWE envelope and authenticated. */
  readonly encrypted: boolean;
  /** The kid that selected the key (undefined for plain requests and envelopes without one). */
  readonly kid: string | undefined;
  /** The envelope's JOSE header (protected plus unprotected parameters). */
  readonly header: JoseHeader | undefined;
  /** Which bytes the tag authenticated as the protected header; see the codec's `HeaderSource`. */
  readonly headerSource: HeaderSource | undefined;
  /** Whether JSON answers to this request go out as envelopes. */
  readonly encryptsResponse: boolean;
}

export const PLAIN_INFO: JweRequestInfo = Object.freeze({
  encrypted: false,
  kid: undefined,
  header: undefined,
  headerSource: undefined,
  encryptsResponse: false,
});
