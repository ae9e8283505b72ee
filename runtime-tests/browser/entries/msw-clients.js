// Page entry: ky 1 and axios (XHR and fetch adapters) against @jwe-transport/testing's MSW
// handlers, served by MSW's service worker in this page (see browser/msw.test.ts). Every scenario
// reports plain data; the Node test checks it.
import { useJwe } from '@jwe-transport/axios-interceptor';
import { jwe } from '@jwe-transport/ky-plugin';
import { createJweHttp } from '@jwe-transport/testing';
import axios from 'axios';
import ky, { HTTPError } from 'ky';
import { HttpResponse, http } from 'msw';
import { setupWorker } from 'msw/browser';
import { outcome, publish, sampleBlob, sha256Hex } from '../../scenarios/kit.js';

const AADHAAR = '999941057058';

/** The handlers: the page's own API, mocked; what each resolver saw is kept for the test. */
function handlers(jweHttp, seen) {
  return [
    jweHttp.post('/api/patients', async ({ request, jwe: facts }) => {
      const body = await request.json();
      seen.push({ route: 'patients', body, facts, encryption: request.headers.get('x-encryption') });
      if (body.aadhaar_number !== AADHAAR) {
        return HttpResponse.json({ error: { code: 'ERR_AADHAAR_INVALID' } }, { status: 422 });
      }
      return HttpResponse.json({ id: 'p-1', aadhaar_number: body.aadhaar_number }, { status: 201 });
    }),
    jweHttp.post('/api/docs', async ({ request, jwe: facts }) => {
      const bytes = await request.blob();
      seen.push({ route: 'docs', facts, type: request.headers.get('content-type') });
      return HttpResponse.json({ size: bytes.size, sha256: await sha256Hex(bytes) });
    }),
    // A handler that answers in clear, as a misconfigured server would.
    http.post('/api/plain', () => HttpResponse.json({ id: 'p-1' })),
  ];
}

/** What went over the page's wire (the requests before the worker's handlers opened them). */
function recordWire(worker) {
  const wire = [];
  worker.events.on('request:start', ({ request }) => {
    const copy = request.clone();
    wire.push(
      copy.text().then((body) => ({
        path: new URL(request.url).pathname,
        encryption: request.headers.get('x-encryption'),
        carriesAadhaar: body.includes(AADHAAR),
        isEnvelope: body.includes('"ciphertext"'),
      })),
    );
  });
  return () => Promise.all(wire);
}

async function kyCalls(key, kid, sample) {
  const api = ky.create({ prefixUrl: location.origin, retry: 0 }).extend(jwe({ key, kid }));
  const answer = async (send) => {
    try {
      const response = await send();
      return { status: response.status, body: await response.json() };
    } catch (error) {
      if (error instanceof HTTPError)
        return { status: error.response.status, body: await error.response.json() };
      throw error;
    }
  };
  const form = new FormData();
  form.set('file', sample, 'scan.pdf');
  return {
    json: await outcome(() => answer(() => api.post('api/patients', { json: { aadhaar_number: AADHAAR } }))),
    sealedError: await outcome(() =>
      answer(() => api.post('api/patients', { json: { aadhaar_number: '1' } })),
    ),
    plainAnswer: await outcome(() =>
      answer(() => api.post('api/plain', { json: { aadhaar_number: AADHAAR } })),
    ),
    file: await outcome(() => answer(() => api.post('api/docs', { body: form }))),
  };
}

async function axiosCalls(key, kid, adapter, sample) {
  const api = axios.create({ baseURL: location.origin, adapter });
  useJwe(api, { key, kid });
  const answer = async (send) => {
    try {
      const response = await send();
      return { status: response.status, body: response.data };
    } catch (error) {
      if (axios.isAxiosError(error) && error.response) {
        return { status: error.response.status, body: error.response.data };
      }
      throw error;
    }
  };
  const form = new FormData();
  form.set('file', sample, 'scan.pdf');
  return {
    json: await outcome(() => answer(() => api.post('/api/patients', { aadhaar_number: AADHAAR }))),
    sealedError: await outcome(() => answer(() => api.post('/api/patients', { aadhaar_number: '1' }))),
    plainAnswer: await outcome(() => answer(() => api.post('/api/plain', { aadhaar_number: AADHAAR }))),
    file: await outcome(() => answer(() => api.post('/api/docs', form))),
  };
}

publish('msw-clients', async ({ kid, key, wrongKey }) => {
  const seen = [];
  const jweHttp = createJweHttp({ keys: { [kid]: key } });
  const worker = setupWorker(...handlers(jweHttp, seen));
  await worker.start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'error',
    quiet: true,
  });
  const wire = recordWire(worker);
  const sample = sampleBlob();
  const clients = {
    ky: await kyCalls(key, kid, sample),
    'axios-xhr': await axiosCalls(key, kid, 'xhr', sample),
    'axios-fetch': await axiosCalls(key, kid, 'fetch', sample),
  };
  const wrongKeyCalls = {
    ky: (await kyCalls(wrongKey, kid, sample)).json,
    'axios-xhr': (await axiosCalls(wrongKey, kid, 'xhr', sample)).json,
  };
  const result = {
    controlled: navigator.serviceWorker.controller !== null,
    sample: { size: sample.size, sha256: await sha256Hex(sample) },
    clients,
    wrongKeyCalls,
    seen,
    wire: await wire(),
  };
  worker.stop();
  return result;
});
