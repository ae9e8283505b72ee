import { useJwe } from '@jwe-transport/axios-interceptor';
import { createJweFetch } from '@jwe-transport/client-core';
import { jwe } from '@jwe-transport/ky-plugin';
import axios, { AxiosError } from 'axios';
import ky, { HTTPError } from 'ky';

/** What a client call ended with: an answer (any status, body as the client read it) or an error. */
export type Outcome =
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'error'; name: string; code: unknown; status: unknown };

/** One HTTP client with the jwe adapter installed, reduced to the calls the cases make. */
export interface TestClient {
  postJson(url: string, value: unknown): Promise<Outcome>;
  postFile(url: string, bytes: Uint8Array, name: string): Promise<Outcome>;
}

export interface ClientKeys {
  key: string;
  kid: string;
}

function failure(error: unknown): Outcome {
  const { name, code, status } = error as { name?: string; code?: unknown; status?: unknown };
  return { kind: 'error', name: String(name), code, status };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  return text === '' ? undefined : JSON.parse(text);
}

function fileForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), name);
  return form;
}

/** client-core's fetch wrapper: answers of every status come back as responses. */
export function fetchClient(keys: ClientKeys): TestClient {
  const jweFetch = createJweFetch(keys);
  const call = async (url: string, init: RequestInit) => {
    try {
      const response = await jweFetch(url, init);
      return { kind: 'answer', status: response.status, body: await readBody(response) } as const;
    } catch (error) {
      return failure(error);
    }
  };
  return {
    postJson: (url, value) =>
      call(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(value),
      }),
    postFile: (url, bytes, name) => call(url, { method: 'POST', body: fileForm(bytes, name) }),
  };
}

/** ky 1 with the ky plugin: non-2xx answers are HTTPErrors whose response was opened. */
export function kyClient(keys: ClientKeys): TestClient {
  const api = ky.create({ retry: 0 }).extend(jwe(keys));
  const call = async (send: () => Promise<Response>): Promise<Outcome> => {
    try {
      const response = await send();
      return { kind: 'answer', status: response.status, body: await readBody(response) };
    } catch (error) {
      if (error instanceof HTTPError) {
        return { kind: 'answer', status: error.response.status, body: await readBody(error.response) };
      }
      return failure(error);
    }
  };
  return {
    postJson: (url, value) => call(() => api.post(url, { json: value })),
    postFile: (url, bytes, name) => call(() => api.post(url, { body: fileForm(bytes, name) })),
  };
}

/** axios with the interceptor: non-2xx answers are AxiosErrors with opened data. */
export function axiosClient(keys: ClientKeys, adapter: 'http' | 'fetch' = 'http'): TestClient {
  const api = axios.create({ adapter });
  useJwe(api, keys);
  const call = async (send: () => Promise<{ status: number; data: unknown }>): Promise<Outcome> => {
    try {
      const response = await send();
      return {
        kind: 'answer',
        status: response.status,
        body: response.data === '' ? undefined : response.data,
      };
    } catch (error) {
      if (error instanceof AxiosError && error.response) {
        return { kind: 'answer', status: error.response.status, body: error.response.data };
      }
      return failure(error);
    }
  };
  return {
    postJson: (url, value) => call(() => api.post(url, value)),
    postFile: (url, bytes, name) => call(() => api.post(url, fileForm(bytes, name))),
  };
}
