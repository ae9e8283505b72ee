import type { HeaderSource, JoseHeader, KeyInput } from '@jwe-transport/codec';

/** What the middleware did with a request; available to handlers and loggers as `req.jwe`. */
export interface JweRequestInfo {
  /** The request body arrived as a JWE envelope and authenticated. */
  readonly encrypted: boolean;
  /** The kid that selected the key (undefined for plain requests and envelopes without one). */
  readonly kid: string | undefined;
  /** The envelope's JOSE header (protected plus unprotected parameters). */
  readonly header: JoseHeader | undefined;
  /** Which bytes the tag authenticated as the protected header; see the codec's `HeaderSource`. */
  readonly headerSource: HeaderSource | undefined;
  /** Whether `res.json`/`res.send` bodies of this request go out as envelopes. */
  readonly encryptsResponse: boolean;
}

/** Internal state kept next to `req.jwe`: the key itself must never be reachable from handlers. */
export interface ResponseKey {
  key: KeyInput;
  kid: string | undefined;
}

declare global {
  namespace Express {
    interface Request {
      /** Set by `@jwe-transport/express-middleware`. */
      jwe?: JweRequestInfo;
    }
  }
}
