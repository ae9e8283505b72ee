import type { JweRequestInfo } from '@jwe-transport/server-core';

export type { JweRequestInfo };

declare global {
  namespace Express {
    interface Request {
      /** Set by `@jwe-transport/express-middleware`. */
      jwe?: JweRequestInfo;
    }
  }
}
