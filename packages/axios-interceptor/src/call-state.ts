import type { ResponseContext } from '@jwe-transport/client-core/adapter';
import type { AxiosRequestConfig, AxiosResponseTransformer } from 'axios';
import type { Original } from './replay.js';

/**
 * What the request interceptor changed on a call's config, so the response interceptor can open
 * the answer and then give the caller's `responseType` and `transformResponse` their turn.
 * Kept under a symbol: axios copies symbol-keyed config members to the response's config.
 */
export interface CallState {
  /** Which `useJwe` installation this call belongs to (several may share an instance). */
  owner: object;
  /** The config as the caller made it, put back once the answer is handled (see replay.ts). */
  original: Original;
  context: ResponseContext;
  responseType: AxiosRequestConfig['responseType'];
  transformResponse: AxiosResponseTransformer | AxiosResponseTransformer[] | undefined;
}

export const CALL_STATE = Symbol('jwe-transport.axios');

export type ConfigWithState = AxiosRequestConfig & { [CALL_STATE]?: CallState };

export function stateOf(config: AxiosRequestConfig | undefined, owner: object): CallState | undefined {
  const state = (config as ConfigWithState | undefined)?.[CALL_STATE];
  return state?.owner === owner ? state : undefined;
}
