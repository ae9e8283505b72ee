import type { JweCallOptions, JweClientOptions } from '@jwe-transport/client-core';
import { createJweClient } from '@jwe-transport/client-core/adapter';
import type { AxiosInstance } from 'axios';
import type { Platform } from './platform.js';
import { requestInterceptor } from './request-interceptor.js';
import { responseInterceptors } from './response-interceptor.js';

export type JweAxiosOptions = JweClientOptions;

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Per call: `false` leaves this call alone both ways, or choose `{ request, response }`. */
    jwe?: JweCallOptions;
  }
}

export function installJwe(
  instance: AxiosInstance,
  options: JweAxiosOptions,
  platform: Platform,
): () => void {
  if (!instance?.interceptors?.request || !instance.interceptors.response) {
    throw new TypeError('useJwe: pass an axios instance, for example useJwe(axios.create(), { key }).');
  }
  const client = createJweClient(options);
  const owner = {};
  const responses = responseInterceptors(client, platform, owner);
  const requestId = instance.interceptors.request.use(requestInterceptor(client, platform, owner));
  const responseId = instance.interceptors.response.use(responses.onFulfilled, responses.onRejected);
  let removed = false;
  return function removeJwe() {
    if (removed) return;
    removed = true;
    instance.interceptors.request.eject(requestId);
    instance.interceptors.response.eject(responseId);
  };
}
