import type { JweRequestContext, ResolvedOptions, ResponseMode } from './options.js';

export interface CallSettings {
  encryptRequest: boolean;
  responses: ResponseMode;
}

/** Merges a per-call `{ jwe: ... }` switch over the plugin's options. */
export function callSettings(context: unknown, options: ResolvedOptions): CallSettings {
  const value = (context as { jwe?: JweRequestContext } | null | undefined)?.jwe;
  if (value === false) return { encryptRequest: false, responses: 'never' };
  return {
    encryptRequest: value?.request ?? true,
    responses: value?.response ?? options.responses,
  };
}
