import { DECRYPTED_HEADER } from '@jwe-transport/client-core';
import { type JweClient, markDecryptedHeaders } from '@jwe-transport/client-core/adapter';
import { type AxiosResponse, isAxiosError } from 'axios';
import { AxiosHeaderView } from './axios-headers.js';
import { type CallState, stateOf } from './call-state.js';
import type { Platform } from './platform.js';
import { putBack } from './replay.js';
import { bytesOf, finishResponse } from './response-data.js';

async function open(client: JweClient, response: AxiosResponse, state: CallState, platform: Platform) {
  let bytes = bytesOf(response.data);
  const headers = new AxiosHeaderView(response.headers);
  // The response's own headers become the decrypted response's: axios made them for this response alone.
  response.headers = headers.store as unknown as AxiosResponse['headers'];
  const head = { status: response.status, statusText: response.statusText, headers };
  let decrypted = false;
  if (client.needsBody(head, state.context)) {
    const opened = await client.openBody(bytes, { ...head, url: state.context.url ?? '' }, state.context);
    if (opened.decrypted) {
      decrypted = true;
      bytes = opened.plaintext;
      markDecryptedHeaders(headers, opened.info);
    }
  }
  // Only this library may say an answer was decrypted; a server's or proxy's claim is dropped.
  if (!decrypted && headers.has(DECRYPTED_HEADER)) headers.delete(DECRYPTED_HEADER);
  finishResponse(response, bytes, state, platform);
}

/** Opens 2xx answers (axios's fulfilled path) and error answers (`AxiosError.response`). */
export function responseInterceptors(client: JweClient, platform: Platform, owner: object) {
  // A retry made by an interceptor that runs before this one (axios-retry installed first) hands
  // this interceptor the answer to the retried call, which this interceptor already opened.
  const handled = new WeakSet<AxiosResponse>();
  return {
    async onFulfilled(response: AxiosResponse): Promise<AxiosResponse> {
      const state = stateOf(response.config, owner);
      if (state === undefined || handled.has(response)) return response;
      handled.add(response);
      if (state.context.mode !== 'never') await open(client, response, state, platform);
      putBack(response.config, state.original);
      return response;
    },
    async onRejected(error: unknown): Promise<never> {
      if (!isAxiosError(error)) throw error;
      const config = error.response?.config ?? error.config;
      const state = stateOf(config, owner);
      if (state === undefined || config === undefined) throw error;
      if (error.response && handled.has(error.response)) throw error;
      if (error.response) handled.add(error.response);
      if (error.response && state.context.mode !== 'never')
        await open(client, error.response, state, platform);
      // error.config is now the caller's own call: sending it again seals it afresh.
      putBack(config, state.original);
      if (error.config && error.config !== config) putBack(error.config, state.original);
      throw error;
    },
  };
}
