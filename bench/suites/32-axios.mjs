// axios with useJwe vs the same axios without it: 1 KiB JSON round trips against the same local
// server (jwe-echo-server.mjs), in the same run, with axios's Node http adapter and its fetch
// adapter. Ours seals the JSON and opens the encrypted answer before axios parses it. A third
// client does the same work by hand with the codec's encryptJson/decryptJson through the same
// axios, so that the interceptors' own cost shows apart from the crypto; a fourth does it through
// an instance whose interceptors only pass each call on, the floor of any interceptor.
import { createRequire } from 'node:module';
import { compareClientsAndByHand, PAYLOAD, SHARED_KEY, startEchoServer } from './jwe-echo-server.mjs';
import { report } from './lib.mjs';
import { PROGRESS_KEY, progressRows } from './upload-progress.mjs';

const require = createRequire(new URL('../../packages/axios-interceptor/package.json', import.meta.url));
const axios = require('axios');
const { version } = require('axios/package.json');
const { useJwe } = await import(
  new URL('../../packages/axios-interceptor/dist/index.node.js', import.meta.url).href
);
const { decryptJson, encryptJson } = await import(
  new URL('../../packages/codec/dist/index.node.js', import.meta.url).href
);

const server = await startEchoServer();
const call = (instance, path) => async () => {
  const { data } = await instance.post(path, PAYLOAD);
  if (data.note !== PAYLOAD.note) throw new Error(`the ${path} round trip did not echo the payload`);
};
// axios serialises the envelope and parses the answer's; the codec seals and opens.
const byHand = (instance) => async () => {
  const envelope = await encryptJson(PAYLOAD, SHARED_KEY, { kid: 'bench' });
  const { data } = await instance.post('/jwe', envelope, { headers: { 'X-Encryption': 'JWE' } });
  const echoed = await decryptJson(data, SHARED_KEY);
  if (echoed.note !== PAYLOAD.note) throw new Error('the by-hand round trip did not echo the payload');
};

// Any request interceptor moves axios's dispatch onto a promise chain, and any response
// interceptor adds a step to it: the floor of an adapter built on axios's interceptors.
const INTERCEPTOR_FLOOR = {
  step: 'pass-through interceptors',
  why:
    'the by-hand calls through an instance with a request and a response interceptor that only pass ' +
    "each config and answer on, registered as useJwe registers its own (axios's defaults: asynchronous, no runWhen)",
};
function passingThrough(adapter) {
  const instance = axios.create({ baseURL: server.url, adapter });
  instance.interceptors.request.use((config) => config);
  instance.interceptors.response.use((response) => response);
  return instance;
}

try {
  const rows = [];
  for (const adapter of ['http', 'fetch']) {
    const plain = axios.create({ baseURL: server.url, adapter });
    const encrypted = axios.create({ baseURL: server.url, adapter });
    useJwe(encrypted, { key: SHARED_KEY, kid: 'bench', origins: [server.url] });
    rows.push(
      ...(await compareClientsAndByHand({
        server,
        label: `axios ${version}, ${adapter} adapter`,
        ours: call(encrypted, '/jwe'),
        plain: call(plain, '/plain'),
        byHand: byHand(plain),
        floor: { call: byHand(passingThrough(adapter)), ...INTERCEPTOR_FLOOR },
        notes: 'ours: axios.create() + useJwe(); reference: axios.create() alone',
        byHandNotes:
          "encryptJson's envelope posted with X-Encryption: JWE (axios sets content-type application/json " +
          'and serialises it), the parsed answer opened with decryptJson (strict parse of the plaintext)',
      })),
    );
  }
  // A sealed 64 MiB upload, progress on vs off, through the http adapter: the cost of reporting
  // plaintext bytes to onUploadProgress (the sink answers plain JSON, so the client accepts it).
  const uploads = axios.create({ adapter: 'http', maxBodyLength: Infinity });
  useJwe(uploads, { key: PROGRESS_KEY, plainResponses: 'accept' });
  rows.push(
    ...(await progressRows(`axios ${version}, http adapter`, (url, file, onUploadProgress) =>
      uploads.post(`${url}/upload`, file, onUploadProgress ? { onUploadProgress } : {}),
    )),
  );
  // What onUploadProgress costs axios itself (its throttled progress stream), with no sealing:
  // the same file streamed plain, so the row above can be read apart from axios's own cost.
  const { Readable } = await import('node:stream');
  const plainUploads = axios.create({ adapter: 'http', maxBodyLength: Infinity });
  const [plainRow] = await progressRows(
    `plain axios ${version}, http adapter (no sealing)`,
    (url, file, onUploadProgress) =>
      plainUploads.post(
        `${url}/upload`,
        Readable.fromWeb(file.stream()),
        onUploadProgress ? { onUploadProgress } : {},
      ),
  );
  rows.push({ ...plainRow, case: plainRow.case.replace('sealed ', ''), target: 'reference', met: undefined });
  report('axios interceptor vs plain axios (1 KiB JSON round trips, local node:http server)', rows);
} finally {
  server.stop();
}
