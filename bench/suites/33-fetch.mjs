// The fetch wrapper (createJweFetch from the client core) vs the global fetch it wraps: 1 KiB JSON
// round trips against the same local server (jwe-echo-server.mjs), in the same run. Ours seals the
// JSON and opens the encrypted answer; the plain fetch sends and reads the JSON as it is. A third
// client, the global fetch with the codec's encryptJson/decryptJson around it, puts the same
// envelopes on the wire, so the wrapper's own cost shows apart from the crypto. All parse the answer.
import {
  compareClientsAndByHand,
  PAYLOAD,
  RESPONSE_FLOOR,
  SHARED_KEY,
  startEchoServer,
} from './jwe-echo-server.mjs';
import { report } from './lib.mjs';

const { createJweFetch } = await import(
  new URL('../../packages/client-core/dist/index.js', import.meta.url).href
);
const { decrypt, decryptJson, encryptJson } = await import(
  new URL('../../packages/codec/dist/index.node.js', import.meta.url).href
);

const server = await startEchoServer();
const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'bench' });
const text = JSON.stringify(PAYLOAD);
const post = { method: 'POST', headers: { 'content-type': 'application/json' } };

const checked = (name, roundTrip) => async () => {
  const echoed = await roundTrip();
  if (echoed.note !== PAYLOAD.note) throw new Error(`the ${name} round trip did not echo the payload`);
};
const plain = checked('plain', async () =>
  (await fetch(`${server.url}/plain`, { ...post, body: text })).json(),
);
const ours = checked('jwe', async () =>
  (await jweFetch(`${server.url}/jwe`, { ...post, body: text })).json(),
);
const byHand = checked('by-hand', async () => {
  const body = JSON.stringify(await encryptJson(PAYLOAD, SHARED_KEY, { kid: 'bench' }));
  const headers = { ...post.headers, 'x-encryption': 'JWE' };
  const answer = await (await fetch(`${server.url}/jwe`, { ...post, headers, body })).arrayBuffer();
  return decryptJson(new Uint8Array(answer), SHARED_KEY);
});

// A fetch wrapper must hand back a Response: by hand plus building one from the plaintext.
const floor = checked('floor', async () => {
  const body = JSON.stringify(await encryptJson(PAYLOAD, SHARED_KEY, { kid: 'bench' }));
  const headers = { ...post.headers, 'x-encryption': 'JWE' };
  const answer = await fetch(`${server.url}/jwe`, { ...post, headers, body });
  const plaintext = await decrypt(new Uint8Array(await answer.arrayBuffer()), SHARED_KEY);
  return new Response(plaintext, answer).json();
});

try {
  const rows = await compareClientsAndByHand({
    server,
    label: `fetch wrapper (Node ${process.version} global fetch)`,
    ours,
    plain,
    byHand,
    notes: 'ours: createJweFetch({ key, kid }); reference: the global fetch it wraps',
    byHandNotes:
      'encryptJson + JSON.stringify, sent with content-type application/json and X-Encryption: JWE, ' +
      'the answer read as bytes and opened with decryptJson (strict parse)',
    floor: { call: floor, ...RESPONSE_FLOOR },
  });
  report('fetch wrapper vs plain fetch (1 KiB JSON round trips, local node:http server)', rows);
} finally {
  server.stop();
}
