// undici as drivers of the client conformance suite: `undici.request` and `undici.fetch` through
// a dispatcher composed with jweInterceptor, and undici's own retry interceptor composed after it
// (so it runs first, and every attempt goes through jweInterceptor, which seals it afresh). The
// interceptor comes in as an argument (its package's tests pass its sources). A peer may bring its
// own dispatcher (a MockAgent); the drivers compose on it instead of a fresh Agent.
import { openAsBlob } from 'node:fs';
import type { Dispatcher } from 'undici';
import type { ClientDriver, ConformanceBody } from '../client-conformance/index.js';

export type Undici = typeof import('undici');

/** undici-interceptor's jweInterceptor. */
export type JweInterceptor = (options: {
  key: string;
  origins: string[];
  kid?: string;
  streamThreshold?: number;
}) => Dispatcher.DispatcherComposeInterceptor;

type Sent = { body?: unknown; headers?: Record<string, string> };

async function sent(body: ConformanceBody, undici: Undici): Promise<Sent> {
  const form = (file: Blob, name: string) => {
    const data = new undici.FormData();
    data.set('file', file, name);
    return data;
  };
  switch (body.kind) {
    case 'json':
      return { body: JSON.stringify(body.value), headers: { 'content-type': 'application/json' } };
    case 'bytes':
      return { body: body.bytes };
    case 'blob':
      return { body: body.blob };
    case 'form':
      return { body: form(body.file, body.name) };
    case 'disk': {
      const file = await openAsBlob(body.path);
      return { body: body.asForm ? form(file, 'scan.bin') : file };
    }
  }
}

export function undiciDrivers(label: string, undici: Undici, jweInterceptor: JweInterceptor): ClientDriver[] {
  const compose = (options: Parameters<ClientDriver['create']>[0], retry: boolean) => {
    // The peer's dispatcher is the peer's to close; a fresh Agent is the driver's.
    const own = options.dispatcher === undefined ? new undici.Agent() : undefined;
    const base = (own ?? options.dispatcher) as Dispatcher;
    const agent = { close: async () => own?.close() };
    const jwe = jweInterceptor({
      key: options.key,
      origins: [options.origin],
      ...(options.kid === undefined ? {} : { kid: options.kid }),
      ...(options.streamThreshold === undefined ? {} : { streamThreshold: options.streamThreshold }),
    });
    const retrying = undici.interceptors.retry({
      maxRetries: 1,
      minTimeout: 0,
      timeoutFactor: 1,
      methods: ['POST'],
      statusCodes: [503],
    });
    return { agent, dispatcher: retry ? base.compose(jwe, retrying) : base.compose(jwe) };
  };
  return [
    {
      name: `${label} request()`,
      retryModes: ['interceptors.retry'],
      create(options) {
        const once = compose(options, false);
        const retrying = compose(options, true);
        return {
          async post(url, body, call) {
            const { dispatcher } = call?.retry ? retrying : once;
            const response = await undici.request(url, {
              method: 'POST',
              dispatcher,
              ...((await sent(body, undici)) as object),
            });
            const text = await response.body.text();
            return {
              status: response.statusCode,
              decrypted: response.headers['x-jwe-decrypted'] !== undefined,
              json: text === '' ? undefined : JSON.parse(text),
            };
          },
          close: async () => {
            await once.agent.close();
            await retrying.agent.close();
          },
        };
      },
    },
    {
      name: `${label} fetch()`,
      // No retries: fetch() hands the dispatcher a one-shot stream, and jweInterceptor refuses the
      // second attempt that undici's retry interceptor makes with it (retry-upload tests).
      retryModes: [],
      create(options) {
        const { agent, dispatcher } = compose(options, false);
        return {
          async post(url, body) {
            const response = await undici.fetch(url, {
              method: 'POST',
              dispatcher,
              ...((await sent(body, undici)) as object),
            });
            const text = await response.text();
            return {
              status: response.status,
              decrypted: response.headers.has('x-jwe-decrypted'),
              json: text === '' ? undefined : JSON.parse(text),
            };
          },
          close: () => agent.close(),
        };
      },
    },
  ];
}
