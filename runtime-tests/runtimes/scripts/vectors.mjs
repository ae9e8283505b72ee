// Runs under Deno or Bun: reads the shared test vectors and prints, as JSON, what the codec made of
// each one. It judges nothing; the Node test compares every answer with the vector files.
import * as codec from '@jwe-transport/codec';

const vectorFile = async (name) => {
  const url = new URL(`../../../test-vectors/${name}`, import.meta.url);
  return JSON.parse(await (globalThis.Deno ? Deno.readTextFile(url) : Bun.file(url).text()));
};

const base64 = (bytes) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
const bytesOf = (text) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const base64urlBytes = (text) => bytesOf(text.replaceAll('-', '+').replaceAll('_', '/'));

async function settle(work) {
  try {
    return await work();
  } catch (error) {
    return { code: error?.code ?? `not a JweError: ${error}` };
  }
}

async function reencrypt(vector) {
  if (vector.producer !== 'jwe-transport') return undefined;
  const iv = base64urlBytes(vector.iv);
  const options = vector.kid === undefined ? { unsafeFixedIv: iv } : { unsafeFixedIv: iv, kid: vector.kid };
  if (vector.kind === 'json') return codec.encryptJson(vector.json, vector.key, options);
  if (vector.kind === 'file') return codec.encryptFile(bytesOf(vector.file.base64), vector.key, options);
  return codec.encrypt(bytesOf(vector.plaintext.base64), vector.key, options);
}

async function positive(vector) {
  const detailed = await codec.decryptDetailed(vector.envelope, vector.key);
  return {
    name: vector.name,
    plaintext: base64(detailed.plaintext),
    kid: detailed.kid ?? null,
    headerSource: detailed.headerSource,
    compact: base64(await codec.decrypt(vector.compact, vector.key)),
    ...(vector.kind === 'json' ? { json: await codec.decryptJson(vector.envelope, vector.key) } : {}),
    ...(vector.kind === 'file' ? { file: base64(await codec.decryptFile(vector.envelope, vector.key)) } : {}),
    ...(vector.producer === 'jwe-transport' ? { reencrypted: await reencrypt(vector) } : {}),
  };
}

async function negative(testCase) {
  const key = testCase.keys ? codec.keyring(testCase.keys) : testCase.key;
  const result = await settle(async () => {
    await codec.decrypt(testCase.input, key, testCase.options);
    return { code: 'decrypted' };
  });
  return { name: testCase.name, code: result.code };
}

async function response(vector) {
  const outcomes = {};
  for (const policy of ['infer', 'rfc', 'reject']) {
    outcomes[policy] = await settle(async () => {
      const result = await codec.decryptDetailed(vector.envelope, vector.key, { missingProtected: policy });
      return {
        headerSource: result.headerSource,
        plaintext: base64(result.plaintext),
        kid: result.kid ?? null,
      };
    });
  }
  return { name: vector.name, outcomes };
}

const { vectors } = await vectorFile('envelopes.json');
const { cases } = await vectorFile('malformed.json');
const { responses } = await vectorFile('responses.json');
const report = {
  backend: codec.backendName,
  resolved: import.meta.resolve('@jwe-transport/codec'),
  vectors: [],
  malformed: [],
  responses: [],
};
for (const vector of vectors) report.vectors.push(await positive(vector));
for (const testCase of cases) report.malformed.push(await negative(testCase));
for (const vector of responses) report.responses.push(await response(vector));
console.log(JSON.stringify(report));
