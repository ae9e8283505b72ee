// A fetch wrapper (`createJweFetch({ key, kid })`) used as an application would: it seals the
// JSON body and the FormData file, and hands back opened responses.
import { AADHAAR, DOCS, outcome, REGISTRATION, sampleBlob, sha256Hex } from './kit.js';

export async function runFetchWrapperScenarios(createJweFetch, { url, token, kid, key, wrongKey }) {
  const jweFetch = createJweFetch({ key, kid });
  const headers = { authorization: `Bearer ${token}` };
  const postJson = async (fetchFn, value) => {
    const response = await fetchFn(`${url}/${REGISTRATION}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(value),
    });
    return { status: response.status, body: await response.json() };
  };

  const json = await outcome(() => postJson(jweFetch, { aadhaar_number: AADHAAR }));
  const blob = sampleBlob();
  const file = await outcome(async () => {
    const form = new FormData();
    form.set('file', blob, 'discharge-summary.pdf');
    const response = await jweFetch(`${url}/${DOCS}?task=smart`, { method: 'POST', headers, body: form });
    return {
      status: response.status,
      body: await response.json(),
      sentSha256: await sha256Hex(blob),
      sentSize: blob.size,
    };
  });
  const error = await outcome(() => postJson(jweFetch, { aadhaar_number: '12' }));
  const wrongKeyRequest = await outcome(() =>
    postJson(createJweFetch({ key: wrongKey, kid }), { aadhaar_number: AADHAAR }),
  );
  return { json, file, error, wrongKeyRequest };
}
