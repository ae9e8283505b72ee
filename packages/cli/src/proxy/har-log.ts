import { rename, writeFile } from 'node:fs/promises';
import type { BodyCapture } from './capture.js';
import type { Exchange, ExchangeSide, OpenedView } from './exchange.js';

declare const __CLI_VERSION__: string;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function textOf(capture: BodyCapture | undefined): { text?: string; comment?: string } {
  if (capture === undefined) return {};
  const bytes = capture.bytes();
  if (bytes === undefined) {
    return {
      comment: `body of ${capture.size} bytes not kept (more than the proxy copies); sha256 ${capture.sha256()}`,
    };
  }
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { comment: `binary body of ${capture.size} bytes not kept; sha256 ${capture.sha256()}` };
  }
}

/** The opened body, in the field beside the sealed one: `_opened` (HAR allows custom fields that start with `_`). */
function openedOf(side: ExchangeSide): Record<string, unknown> | undefined {
  const view: OpenedView | undefined = side.opened;
  const extra = {
    ...(side.kid === undefined ? {} : { kid: side.kid }),
    ...(side.failure === undefined ? {} : { error: side.failure }),
    ...(side.note === undefined ? {} : { note: side.note }),
  };
  if (view === undefined) return Object.keys(extra).length === 0 ? undefined : extra;
  switch (view.kind) {
    case 'json':
      return { mimeType: 'application/json', text: view.text, ...extra };
    case 'text':
      return { mimeType: side.openedType ?? 'text/plain', text: view.text, ...extra };
    case 'empty':
      return { mimeType: side.openedType ?? '', text: '', ...extra };
    case 'file':
      return {
        mimeType: view.type,
        file: {
          ...(view.name === undefined ? {} : { name: view.name }),
          size: view.size,
          sha256: view.sha256,
        },
        ...extra,
      };
  }
}

const headerList = (pairs: readonly [string, string][]) => pairs.map(([name, value]) => ({ name, value }));
const contentType = (pairs: readonly [string, string][]) =>
  pairs.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';

/** One HAR 1.2 entry: the bodies as they travelled to and from the upstream, and the opened ones beside them. */
export function harEntry(exchange: Exchange): Record<string, unknown> {
  const { request, response } = exchange;
  const url = new URL(exchange.url);
  const requestOpened = openedOf(request);
  const responseOpened = openedOf(response);
  const postData =
    request.wire === undefined && requestOpened === undefined
      ? undefined
      : {
          mimeType: contentType(request.headers),
          ...textOf(request.wire),
          ...(requestOpened === undefined ? {} : { _opened: requestOpened }),
        };
  return {
    startedDateTime: exchange.started.toISOString(),
    time: Math.round(exchange.durationMs),
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(postData === undefined ? {} : { postData }),
      headersSize: -1,
      bodySize: request.wire?.size ?? 0,
    },
    response: {
      status: exchange.status ?? 0,
      statusText: exchange.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(response.headers),
      content: {
        size: response.wire?.size ?? 0,
        mimeType: contentType(response.headers),
        ...textOf(response.wire),
        ...(responseOpened === undefined ? {} : { _opened: responseOpened }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: response.wire?.size ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.round(exchange.durationMs), receive: 0 },
    _jweTransport: {
      mode: exchange.mode,
      outcome: exchange.outcome,
      ...(exchange.code === undefined ? {} : { code: exchange.code }),
    },
  };
}

/**
 * The session's HAR file, rewritten after every exchange under a temporary name and renamed, so
 * the file on disk is always a whole HAR. It never holds a key; it does hold opened plaintext.
 */
export class HarLog {
  readonly #path: string;
  readonly #entries: Record<string, unknown>[] = [];
  #writing: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.#path = path;
  }

  add(exchange: Exchange): Promise<void> {
    this.#entries.push(harEntry(exchange));
    return this.flush();
  }

  flush(): Promise<void> {
    const document = {
      log: {
        version: '1.2',
        creator: {
          name: 'jwe-transport proxy',
          version: typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'development',
        },
        entries: this.#entries,
      },
    };
    const temporary = `${this.#path}.${process.pid}.tmp`;
    this.#writing = this.#writing
      .catch(() => {})
      .then(async () => {
        await writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
        await rename(temporary, this.#path);
      });
    return this.#writing;
  }
}
