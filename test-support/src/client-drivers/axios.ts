// axios as a driver of the client conformance suite, once per adapter Node can use (http, fetch).
// Retries come from axios-retry, and from the hand-written replay `return api(error.config)`
// that token-refresh code uses.
// useJwe comes in as an argument (the interceptor's own tests pass its sources).
import { openAsBlob } from 'node:fs';
import axios, { type AxiosInstance, isAxiosError } from 'axios';
import axiosRetry from 'axios-retry';
import type { ClientDriver, ConformanceBody } from '../client-conformance/index.js';

/** axios-interceptor's useJwe. */
export type UseJwe = (
  instance: AxiosInstance,
  options: { key: string; origins: string[]; kid?: string; streamThreshold?: number },
) => unknown;

async function data(body: ConformanceBody): Promise<unknown> {
  const form = (file: Blob, name: string) => {
    const value = new FormData();
    value.set('file', file, name);
    return value;
  };
  switch (body.kind) {
    case 'json':
      return body.value;
    case 'bytes':
      return body.bytes;
    case 'blob':
      return body.blob;
    case 'form':
      return form(body.file, body.name);
    case 'disk': {
      const file = await openAsBlob(body.path);
      return body.asForm ? form(file, 'scan.bin') : file;
    }
  }
}

export const AXIOS_RETRY = 'axios-retry';
export const REPLAY = 'a replay of error.config';
export const RETRY_FIRST = 'axios-retry installed before useJwe';

export function axiosDriver(adapter: 'http' | 'fetch', useJwe: UseJwe): ClientDriver {
  return {
    name: `axios (${adapter} adapter)`,
    retryModes: [AXIOS_RETRY, RETRY_FIRST, REPLAY],
    create({ key, kid, origin, streamThreshold }) {
      const options = {
        key,
        origins: [origin],
        ...(kid === undefined ? {} : { kid }),
        ...(streamThreshold === undefined ? {} : { streamThreshold }),
      };
      const make = () => {
        const api = axios.create({ adapter });
        useJwe(api, options);
        return api;
      };
      const once = make();
      const retryOptions = {
        retries: 1,
        retryDelay: () => 0,
        retryCondition: (error: { response?: { status: number } }) => error.response?.status === 503,
      };
      const retrying = make();
      axiosRetry(retrying, retryOptions);
      // axios-retry first: its interceptor sees the failed call before useJwe has handled it.
      const retryingFirst = axios.create({ adapter });
      axiosRetry(retryingFirst, retryOptions);
      useJwe(retryingFirst, options);
      const replaying = make();
      // The token-refresh pattern: send the failed call's own config again, once.
      replaying.interceptors.response.use(undefined, (error: unknown) => {
        if (!isAxiosError(error) || error.response?.status !== 503 || !error.config) throw error;
        const config = error.config as typeof error.config & { replayed?: boolean };
        if (config.replayed) throw error;
        config.replayed = true;
        return replaying(config);
      });
      const pick = (mode: string | undefined): AxiosInstance =>
        mode === AXIOS_RETRY
          ? retrying
          : mode === RETRY_FIRST
            ? retryingFirst
            : mode === REPLAY
              ? replaying
              : once;
      return {
        async post(url, body, call) {
          const response = await pick(call?.retry)
            .post(url, await data(body))
            .catch((error: unknown) => {
              if (isAxiosError(error) && error.response) return error.response;
              throw error;
            });
          return {
            status: response.status,
            decrypted: response.headers['x-jwe-decrypted'] !== undefined,
            json: response.data,
          };
        },
      };
    },
  };
}
