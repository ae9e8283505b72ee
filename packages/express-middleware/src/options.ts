import type { JweServerOptions, RefusalReporting } from '@jwe-transport/server-core';
import { JweServer } from '@jwe-transport/server-core';
import { DEFAULT_IDLE_TIMEOUT } from './idle-timeout.js';

export type { ResponseEncryption } from '@jwe-transport/server-core';

/** The server core's options (`keys`, `limit`, `strictJson`, `maxDepth`, ...) plus Express's own. */
export interface JweOptions extends JweServerOptions, RefusalReporting {
  /** Plain JSON bodies: `'parse'` them here (default) or `'ignore'` them and leave them to `express.json()`. */
  plainJson?: 'parse' | 'ignore';
  /** @deprecated Use `strictJson` (the same option on every adapter). */
  strictPlaintext?: boolean;
  /**
   * Milliseconds a client may go without sending a body byte before the request is dropped
   * with 408 (an idle timeout, not a total one). `0` turns it off. Default `30_000`.
   */
  timeout?: number;
}

/** One jwe() or upload() handler's settings: the core engine and Express's additions. */
export interface ExpressSettings extends RefusalReporting {
  server: JweServer;
  plainJson: 'parse' | 'ignore';
  timeout: number;
}

export function resolveOptions(options: JweOptions, defaultLimit: string): ExpressSettings {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('jwe: pass an options object, for example jwe({ keys: { "kid-1": sharedKey } }).');
  }
  const { plainJson = 'parse', strictPlaintext, timeout, logger, onReject, ...core } = options;
  if (plainJson !== 'parse' && plainJson !== 'ignore') {
    throw new TypeError('jwe: "plainJson" must be "parse" or "ignore".');
  }
  const server = new JweServer({
    ...core,
    limit: core.limit ?? defaultLimit,
    strictJson: core.strictJson ?? strictPlaintext !== false,
  });
  const settings: ExpressSettings = { server, plainJson, timeout: parseTimeout(timeout) };
  if (logger) settings.logger = logger;
  if (onReject) settings.onReject = onReject;
  return settings;
}

function parseTimeout(timeout: number | undefined): number {
  if (timeout === undefined) return DEFAULT_IDLE_TIMEOUT;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError('jwe: "timeout" must be a whole number of milliseconds (0 turns it off).');
  }
  return timeout;
}
