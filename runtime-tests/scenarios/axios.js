// axios with the jwe interceptors, on the adapter given ('xhr' or 'fetch' in the browser).
import axios from 'axios';
import { AADHAAR, answerOf, DOCS, outcome, REGISTRATION, sampleBlob, sha256Hex } from './kit.js';

export async function runAxiosScenarios(useJwe, adapter, { url, token, kid, key, wrongKey }) {
  const instance = (withKey) => {
    const client = axios.create({ baseURL: url, adapter, headers: { authorization: `Bearer ${token}` } });
    useJwe(client, { key: withKey, kid });
    return client;
  };
  const api = instance(key);
  const register = (client, aadhaar) =>
    answerOf(async () => {
      const response = await client.post(REGISTRATION, { aadhaar_number: aadhaar });
      return { status: response.status, body: response.data };
    });

  const json = await outcome(() => register(api, AADHAAR));
  // What carried the call: an XMLHttpRequest for the XHR adapter, a fetch Request for the fetch one.
  const transport = await outcome(async () => {
    const response = await api.post(REGISTRATION, { aadhaar_number: AADHAAR });
    return response.request?.constructor?.name;
  });
  const blob = sampleBlob();
  const file = await outcome(async () => {
    const form = new FormData();
    form.set('file', blob, 'discharge-summary.pdf');
    const response = await api.post(DOCS, form, { params: { task: 'smart' } });
    return {
      status: response.status,
      body: response.data,
      sentSha256: await sha256Hex(blob),
      sentSize: blob.size,
    };
  });
  const error = await outcome(() => register(api, '12'));
  const wrongKeyRequest = await outcome(() => register(instance(wrongKey), AADHAAR));
  return { json, file, error, wrongKeyRequest, transport };
}
