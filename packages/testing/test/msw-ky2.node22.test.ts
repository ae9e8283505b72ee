import { jwe } from '@jwe-transport/ky-plugin';
import ky2, { HTTPError } from 'ky2';
import { describeClientCases } from './support/client-cases.js';
import type { Outcome, TestClient } from './support/clients.js';

/*
 * ky 2 (what npm installs on Node 22 and later) with the ky plugin against createJweHttp, through
 * the same cases as ky 1. ky 2 reads an error answer's body itself and hands it over as `data`.
 * Runs on Node >= 22 only (*.node22.test.ts, see vitest.config.ts).
 */
function ky2Client(keys: { key: string; kid: string }): TestClient {
  const api = ky2.create({ retry: 0 }).extend(jwe(keys));
  const call = async (send: () => Promise<Response>): Promise<Outcome> => {
    try {
      const response = await send();
      const text = await response.text();
      return { kind: 'answer', status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    } catch (error) {
      if (error instanceof HTTPError)
        return { kind: 'answer', status: error.response.status, body: error.data };
      const { name, code, status } = error as { name?: string; code?: unknown; status?: unknown };
      return { kind: 'error', name: String(name), code, status };
    }
  };
  const fileForm = (bytes: Uint8Array, name: string) => {
    const form = new FormData();
    form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), name);
    return form;
  };
  return {
    postJson: (url, value) => call(() => api.post(url, { json: value })),
    postFile: (url, bytes, name) => call(() => api.post(url, { body: fileForm(bytes, name) })),
  };
}

describeClientCases({ 'ky 2 with the ky plugin': ky2Client });
