// The fetch wrapper (client-core's createJweFetch) as a driver of the client conformance suite.
// createJweFetch has no retry option of its own; its replay is the caller sending the same url and
// init again. client-core comes in as an argument (its own tests pass its sources).
import type { ClientDriver, ConformanceBody } from '../client-conformance/index.js';

/** client-core's exports the driver uses (Node build). */
export interface ClientCore {
  createJweFetch(options: {
    key: string;
    origins: string[];
    kid?: string;
    streamThreshold?: number;
  }): (url: string, init: RequestInit) => Promise<Response>;
  fileFromPath(path: string): Promise<Blob>;
  wasDecrypted(response: Response): boolean;
}

async function init(body: ConformanceBody, fileFromPath: ClientCore['fileFromPath']): Promise<RequestInit> {
  switch (body.kind) {
    case 'json':
      return {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body.value),
      };
    case 'bytes':
      return { method: 'POST', body: body.bytes as Uint8Array<ArrayBuffer> };
    case 'blob':
      return { method: 'POST', body: body.blob };
    case 'form': {
      const form = new FormData();
      form.set('file', body.file, body.name);
      return { method: 'POST', body: form };
    }
    case 'disk': {
      const file = await fileFromPath(body.path);
      if (!body.asForm) return { method: 'POST', body: file };
      const form = new FormData();
      form.set('file', file, 'scan.bin');
      return { method: 'POST', body: form };
    }
  }
}

export function fetchDriver({ createJweFetch, fileFromPath, wasDecrypted }: ClientCore): ClientDriver {
  return {
    name: 'createJweFetch',
    retryModes: ['a replay of the same init'],
    create({ key, kid, origin, streamThreshold }) {
      const jweFetch = createJweFetch({
        key,
        ...(kid === undefined ? {} : { kid }),
        origins: [origin],
        ...(streamThreshold === undefined ? {} : { streamThreshold }),
      });
      return {
        async post(url, body, options) {
          const requestInit = await init(body, fileFromPath);
          let response = await jweFetch(url, requestInit);
          if (options?.retry && response.status === 503) response = await jweFetch(url, requestInit);
          const text = await response.text();
          return {
            status: response.status,
            decrypted: wasDecrypted(response),
            json: text === '' ? undefined : JSON.parse(text),
          };
        },
      };
    },
  };
}
