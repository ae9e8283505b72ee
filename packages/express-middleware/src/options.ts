import type { JweServerOptions, RefusalReporting } from '@jwe-transport/server-core';
import { JweServer } from '@jwe-transport/server-core';
import { reportingOf } from '@jwe-transport/server-core/adapter';
import { DEFAULT_IDLE_TIMEOUT } from './idle-timeout.js';

export type { ResponseEncryption } from '@jwe-transport/server-core';

/** The server core's options (`keys`, `limit`, `strictJson`, `maxDepth`, ...) plus Express's own. */
export interface JweExpressOptions extends JweServerOptions, RefusalReporting {
  /** Plain JSON bodies: `'parse'` them here (default) or `'ignore'` them and leave them to `express.json()`. */
  plainJson?: 'parse' | 'ignore';
  /**
   * Milliseconds a client may go without sending a body byte before the request is dropped
   * with 408 (an idle timeout, not a total one). `0` turns it off. Default `30_000`.
   */
  timeout?: number;
}

/** One jwe() or upload() handler's settings: the core engine and Express's additions. */
export interface ExpressSettings {
  server: JweServer;
  plainJson: 'parse' | 'ignore';
  timeout: number;
  /** Where this handler's refusals are reported (the console by default). */
  reporting: RefusalReporting;
}

export function resolveOptions(options: JweExpressOptions, defaultLimit: string): ExpressSettings {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('jwe: pass an options object, for example jwe({ keys: { "kid-1": sharedKey } }).');
  }
  const { plainJson = 'parse', timeout, logger, onReject, ...core } = options;
  if (plainJson !== 'parse' && plainJson !== 'ignore') {
    throw new TypeError('jwe: "plainJson" must be "parse" or "ignore".');
  }
  const server = new JweServer({ ...core, limit: core.limit ?? defaultLimit });
  return {
    server,
    plainJson,
    timeout: parseTimeout(timeout),
    reporting: reportingOf({
      ...(logger === undefined ? {} : { logger }),
      ...(onReject ? { onReject } : {}),
    }),
  };
}

function parseTimeout(timeout: number | undefined): number {
  if (timeout === undefined) return DEFAULT_IDLE_TIMEOUT;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError('jwe: "timeout" must be a whole number of milliseconds (0 turns it off).');
  }
  return timeout;
}
