import { DECRYPTED_HEADER, type JweClient, markDecryptedHeaders } from '@jwe-transport/client-core';
import { type AxiosResponse, isAxiosError } from 'axios';
import { AxiosHeaderView } from './axios-headers.js';
import { type CallState, stateOf } from './call-state.js';
import type { Platform } from './platform.js';
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
  return {
    async onFulfilled(response: AxiosResponse): Promise<AxiosResponse> {
      const state = stateOf(response.config, owner);
      if (state !== undefined) await open(client, response, state, platform);
      return response;
    },
    async onRejected(error: unknown): Promise<never> {
      if (isAxiosError(error) && error.response) {
        const state = stateOf(error.response.config ?? error.config, owner);
        if (state !== undefined) await open(client, error.response, state, platform);
      }
      throw error;
    },
  };
}
