// undici with jweInterceptor vs the same undici without it: 1 KiB JSON round trips against the
// same local server (jwe-echo-server.mjs), in the same run. Ours seals the JSON and opens the
// encrypted answer; the plain client sends and reads the JSON as it is. Both parse the answer.
// A third client does ours's work by hand with the codec through the same undici, so that the
// interceptor's own cost shows apart from the crypto.
import { createRequire } from 'node:module';
import { compareClientsAndByHand, PAYLOAD, SHARED_KEY, startEchoServer } from './jwe-echo-server.mjs';
import { report } from './lib.mjs';

const require = createRequire(new URL('../../packages/undici-interceptor/package.json', import.meta.url));
const undici = require('undici');
const { version } = require('undici/package.json');
const { jweInterceptor } = await import(
  new URL('../../packages/undici-interceptor/dist/index.js', import.meta.url).href
);
const { decryptJson, encrypt } = await import(
  new URL('../../packages/codec/dist/index.node.js', import.meta.url).href
);

const server = await startEchoServer();
const plain = new undici.Agent({ connections: 24 });
const encrypted = new undici.Agent({ connections: 24 }).compose(
  jweInterceptor({ key: SHARED_KEY, kid: 'bench', origins: [server.url] }),
);
// On undici 7 every composed interceptor's handler is converted to and from undici's older
// handler API (WrapHandler, UnwrapHandler), whatever the interceptor does: the floor of an
// interceptor is by hand through an Agent composed with one that only passes requests on.
const passThrough = new undici.Agent({ connections: 24 }).compose(
  (dispatch) => (opts, handler) => dispatch(opts, handler),
);
const text = JSON.stringify(PAYLOAD);
const headers = { 'content-type': 'application/json' };

// One round trip through `send` (undici.request or undici.fetch, resolving to the parsed answer).
const roundTrip = (send) => (dispatcher, path) => async () => {
  const echoed = await send(`${server.url}${path}`, { dispatcher, method: 'POST', headers, body: text });
  if (echoed.note !== PAYLOAD.note) throw new Error(`the ${path} round trip did not echo the payload`);
};
const viaRequest = roundTrip(async (url, options) => (await undici.request(url, options)).body.json());
const viaFetch = roundTrip(async (url, options) => (await undici.fetch(url, options)).json());

// The same round trip sealed and opened by hand: the JSON text is already there, as it is for the
// interceptor, so it is encrypted as it is (encryptJson would serialise the object once more).
const sealedHeaders = { 'content-type': 'application/json', 'x-encryption': 'JWE' };
const byHand = (read) => (dispatcher) => async () => {
  const body = JSON.stringify(await encrypt(text, SHARED_KEY, { kid: 'bench' }));
  const answer = await read(`${server.url}/jwe`, {
    dispatcher,
    method: 'POST',
    headers: sealedHeaders,
    body,
  });
  const echoed = await decryptJson(answer, SHARED_KEY);
  if (echoed.note !== PAYLOAD.note) throw new Error('the by-hand round trip did not echo the payload');
};
const byHandRequest = byHand(async (url, options) => (await undici.request(url, options)).body.bytes());
const byHandFetch = byHand(
  async (url, options) => new Uint8Array(await (await undici.fetch(url, options)).arrayBuffer()),
);

const BY_HAND_NOTES =
  'the JSON text sealed with encrypt and JSON.stringify, sent with content-type application/json and ' +
  'X-Encryption: JWE, the answer read as bytes and opened with decryptJson (strict parse), on the same Agent';

const INTERCEPTOR_FLOOR = {
  step: 'a pass-through interceptor',
  why:
    'the by-hand calls through an Agent composed with an interceptor that only passes each request on ' +
    `((dispatch) => (opts, handler) => dispatch(opts, handler)), which undici ${version.split('.')[0]} ` +
    (version.startsWith('7.')
      ? 'converts between its two handler APIs on every response'
      : 'composes as any other'),
};

try {
  const rows = [];
  rows.push(
    ...(await compareClientsAndByHand({
      server,
      label: `undici ${version} request()`,
      ours: viaRequest(encrypted, '/jwe'),
      plain: viaRequest(plain, '/plain'),
      byHand: byHandRequest(plain),
      floor: { call: byHandRequest(passThrough), ...INTERCEPTOR_FLOOR },
      byHandCalls: 'encrypt/decryptJson',
      byHandNotes: BY_HAND_NOTES,
      notes: 'ours: Agent.compose(jweInterceptor()); reference: the same Agent without it',
    })),
  );
  rows.push(
    ...(await compareClientsAndByHand({
      server,
      label: `undici ${version} fetch()`,
      ours: viaFetch(encrypted, '/jwe'),
      plain: viaFetch(plain, '/plain'),
      byHand: byHandFetch(plain),
      floor: { call: byHandFetch(passThrough), ...INTERCEPTOR_FLOOR },
      byHandCalls: 'encrypt/decryptJson',
      byHandNotes: BY_HAND_NOTES,
      notes:
        'ours: undici.fetch through Agent.compose(jweInterceptor()); reference: undici.fetch through the same Agent without it',
    })),
  );
  report('undici interceptor vs plain undici (1 KiB JSON round trips, local node:http server)', rows);
} finally {
  await plain.close();
  await passThrough.close();
  await encrypted.close();
  server.stop();
}
