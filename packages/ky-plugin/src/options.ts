import type { JweClientOptions } from '@jwe-transport/client-core';

/** `jwe()`'s options: the client core's, plus two that only a ky hook needs. */
export interface JwePluginOptions extends JweClientOptions {
  /**
   * The fetch every request goes out through (the plugin takes ky's `fetch` option to open answers
   * and to seal streamed uploads per attempt). Default: the global fetch; either way proxies and
   * undici's global dispatcher apply.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * How `json` bodies become text before they are sealed, if not `JSON.stringify`. `jwe()` takes
   * over ky's `stringifyJson` option, so pass yours here rather than to ky.
   */
  stringifyJson?: (data: unknown) => string;
}

export function checkKyOptions(options: JwePluginOptions): void {
  if (options.stringifyJson !== undefined && typeof options.stringifyJson !== 'function') {
    throw new TypeError('jwe(): "stringifyJson" must be a function (data) => string.');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError('jwe(): "fetch" must be a fetch function.');
  }
}
