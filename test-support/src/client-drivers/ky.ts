// ky (1.x or 2.x) as a driver of the client conformance suite: its own `retry` option retries.
// The ky plugin comes in as an argument, so that its own tests pass its sources and other packages
// the built package.
import type { ClientDriver, ConformanceBody } from '../client-conformance/index.js';

/** The part of ky (1.x or 2.x) the driver calls. */
export interface KyLike {
  create(options: object): {
    extend(plugin: object): { post(url: string, options: object): Promise<Response> };
  };
}

/** The ky plugin's exports the driver uses. */
export interface KyPlugin {
  jwe(options: { key: string; origins: string[]; kid?: string; streamThreshold?: number }): object;
  wasDecrypted(response: Response): boolean;
  /** client-core's fileFromPath, which the ky plugin's README uses for files on disk. */
  fileFromPath(path: string): Promise<Blob>;
}

async function bodyOptions(
  body: ConformanceBody,
  fileFromPath: KyPlugin['fileFromPath'],
): Promise<{ json?: unknown; body?: BodyInit }> {
  switch (body.kind) {
    case 'json':
      return { json: body.value };
    case 'bytes':
      return { body: body.bytes as Uint8Array<ArrayBuffer> };
    case 'blob':
      return { body: body.blob };
    case 'form': {
      const form = new FormData();
      form.set('file', body.file, body.name);
      return { body: form };
    }
    case 'disk': {
      const file = await fileFromPath(body.path);
      if (!body.asForm) return { body: file };
      const form = new FormData();
      form.set('file', file, 'scan.bin');
      return { body: form };
    }
  }
}

export function kyDriver(
  name: string,
  ky: KyLike,
  { jwe, wasDecrypted, fileFromPath }: KyPlugin,
): ClientDriver {
  return {
    name,
    retryModes: ["ky's retry option"],
    create({ key, kid, origin, streamThreshold }) {
      const options = {
        key,
        origins: [origin],
        ...(kid === undefined ? {} : { kid }),
        ...(streamThreshold === undefined ? {} : { streamThreshold }),
      };
      const once = ky.create({ retry: 0, timeout: false }).extend(jwe(options));
      const retrying = ky
        .create({
          retry: { limit: 1, methods: ['post'], statusCodes: [503], delay: () => 0 },
          timeout: false,
        })
        .extend(jwe(options));
      return {
        async post(url, body, call) {
          // ky throws for a non-2xx answer (its retry needs that); the answer is in the HTTPError,
          // whose body ky 2.x has already read into `data`.
          let data: { read: true; json: unknown } | undefined;
          const response = await (call?.retry ? retrying : once)
            .post(url, await bodyOptions(body, fileFromPath))
            .catch((error: unknown) => {
              if ((error as Error).name !== 'HTTPError') throw error;
              const { response: answer, data: read } = error as { response: Response; data?: unknown };
              if (answer.bodyUsed) data = { read: true, json: read };
              return answer;
            });
          const text = data ? '' : await response.text();
          return {
            status: response.status,
            decrypted: wasDecrypted(response),
            json: data ? data.json : text === '' ? undefined : JSON.parse(text),
          };
        },
      };
    },
  };
}
