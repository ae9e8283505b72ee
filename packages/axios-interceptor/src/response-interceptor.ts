import { DECRYPTED_HEADER, type JweClient } from '@jwe-transport/client-core';
import { AxiosHeaders, type AxiosResponse, isAxiosError } from 'axios';
import { toFetchHeaders, toRecord } from './axios-headers.js';
import { type CallState, stateOf } from './call-state.js';
import type { Platform } from './platform.js';
import { bytesOf, finishResponse } from './response-data.js';

async function open(client: JweClient, response: AxiosResponse, state: CallState, platform: Platform) {
  let bytes = bytesOf(response.data);
  const headers = toFetchHeaders(response.headers);
  const head = { status: response.status, statusText: response.statusText, headers };
  let decrypted = false;
  if (client.needsBody(head, state.context)) {
    const opened = await client.openBody(bytes, { ...head, url: state.context.url ?? '' }, state.context);
    if (opened.decrypted) {
      decrypted = true;
      bytes = opened.plaintext;
      response.headers = new AxiosHeaders(toRecord(opened.headers));
    }
  }
  if (!decrypted && headers.has(DECRYPTED_HEADER)) {
    // Only this library may say an answer was decrypted; a server's or proxy's claim is dropped.
    headers.delete(DECRYPTED_HEADER);
    response.headers = new AxiosHeaders(toRecord(headers));
  }
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
