// The codec alone: the caller seals and opens envelopes itself around a plain fetch. Runs in the
// browser (bundled) and under Deno and Bun.
import { backendName, decryptJson, encryptFile, encryptJson } from '@jwe-transport/codec';
import { AADHAAR, DOCS, outcome, REGISTRATION, sampleBlob, sha256Hex } from './kit.js';

export async function runCodecScenarios({ url, token, kid, key, wrongKey }) {
  const post = async (path, envelope) => {
    const response = await fetch(`${url}/${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-encryption': 'JWE',
      },
      body: JSON.stringify(envelope),
    });
    const text = await response.text();
    return { status: response.status, xEncryption: response.headers.get('x-encryption'), text };
  };
  const open = async (answer, withKey = key) => ({
    status: answer.status,
    xEncryption: answer.xEncryption,
    body: await decryptJson(answer.text, withKey),
  });

  const json = await outcome(async () =>
    open(await post(REGISTRATION, await encryptJson({ aadhaar_number: AADHAAR }, key, { kid }))),
  );
  const blob = sampleBlob();
  const file = await outcome(async () => {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return {
      ...(await open(await post(`${DOCS}?task=smart`, await encryptFile(bytes, key, { kid })))),
      sentSha256: await sha256Hex(blob),
      sentSize: blob.size,
    };
  });
  const error = await outcome(async () =>
    open(await post(REGISTRATION, await encryptJson({ aadhaar_number: '12' }, key, { kid }))),
  );
  // Sealed under a key the service does not hold for this kid: the service cannot open it.
  const wrongKeyRequest = await outcome(async () => {
    const answer = await post(
      REGISTRATION,
      await encryptJson({ aadhaar_number: AADHAAR }, wrongKey, { kid }),
    );
    return { status: answer.status, xEncryption: answer.xEncryption, body: JSON.parse(answer.text) };
  });
  // A genuine answer read with the wrong key must be refused.
  const wrongKeyResponse = await outcome(async () => {
    const answer = await post(REGISTRATION, await encryptJson({ aadhaar_number: AADHAAR }, key, { kid }));
    return open(answer, wrongKey);
  });
  return { backend: backendName, json, file, error, wrongKeyRequest, wrongKeyResponse };
}
