// ky (1 or 2, passed in) with the jwe plugin, as the ky plugin's README sets it up.
import { AADHAAR, answerOf, DOCS, outcome, REGISTRATION, sampleBlob, sha256Hex } from './kit.js';

/** `prefixOption` is ky's name for the base URL: `prefixUrl` in ky 1, `prefix` in ky 2. */
export async function runKyScenarios(ky, jwe, prefixOption, { url, token, kid, key, wrongKey }) {
  const base = ky.create({ [prefixOption]: url, headers: { authorization: `Bearer ${token}` }, retry: 0 });
  const api = base.extend(jwe({ key, kid }));
  const register = (client, aadhaar) =>
    answerOf(async () => {
      const response = await client.post(REGISTRATION, { json: { aadhaar_number: aadhaar } });
      return { status: response.status, body: await response.json() };
    });

  const json = await outcome(() => register(api, AADHAAR));
  const blob = sampleBlob();
  const file = await outcome(async () => {
    const form = new FormData();
    form.set('file', blob, 'discharge-summary.pdf');
    const response = await api.post(DOCS, { body: form, searchParams: { task: 'smart' } });
    return {
      status: response.status,
      body: await response.json(),
      sentSha256: await sha256Hex(blob),
      sentSize: blob.size,
    };
  });
  const error = await outcome(() => register(api, '12'));
  const wrongKeyRequest = await outcome(() => register(base.extend(jwe({ key: wrongKey, kid })), AADHAAR));
  return { json, file, error, wrongKeyRequest };
}
