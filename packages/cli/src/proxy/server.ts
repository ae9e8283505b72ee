import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createJweClient } from '@jwe-transport/client-core/adapter';
import type { KeyInput, KeyResolver } from '@jwe-transport/codec';
import { JweServer } from '@jwe-transport/server-core';
import { usageError } from '../cli-error.js';
import { admit, ownHosts } from './admission.js';
import { writeRefusal } from './answer.js';
import type { Exchange } from './exchange.js';
import { sealExchange } from './seal-mode.js';
import type { ProxySettings } from './settings.js';
import { upstreamAgent } from './upstream.js';
import { watchExchange } from './watch-mode.js';

/** The keys the proxy works with: sealing needs the one key and kid to send; watching, every key it may meet. */
export interface ProxyKeys {
  seal: { key: KeyInput; kid: string | undefined };
  resolver: KeyResolver;
}

/** Serves something other than forwarded traffic on the proxy's own port (the live view); true when it did. */
export type LocalRoute = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface RunningProxy {
  url: string;
  port: number;
  /** Exchanges still running. */
  readonly inFlight: number;
  /**
   * Stops listening. With `drain`, waits for the exchanges in flight to end; without, or when
   * `abort()` is called meanwhile, cuts them off. Removes the proxy's temporary folder.
   */
  close(drain: boolean): Promise<void>;
  /** Cuts off every exchange in flight (a second Ctrl-C while draining). */
  abort(): void;
}

function blankExchange(id: number, request: IncomingMessage, settings: ProxySettings): Exchange {
  const path = request.url ?? '/';
  return {
    id,
    started: new Date(),
    method: request.method ?? 'GET',
    path,
    url: path.startsWith('/') ? new URL(path, settings.upstream).href : settings.upstream.href,
    mode: settings.mode,
    status: undefined,
    statusText: '',
    outcome: 'failed',
    code: undefined,
    request: { headers: [], wire: undefined, sealed: false },
    response: { headers: [], wire: undefined, sealed: false },
    durationMs: 0,
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL'
          ? usageError(
              `Cannot listen on ${host}:${port} (${error.code}); choose another --port (0: any free one) or --listen address.`,
            )
          : error,
      ),
    );
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

/** Starts the proxy; `onExchange` hears of every exchange once it is over (never with a key). */
export async function startProxy(
  settings: ProxySettings,
  keys: ProxyKeys,
  onExchange: (exchange: Exchange) => void,
  localRoute?: LocalRoute,
): Promise<RunningProxy> {
  const agent = upstreamAgent(settings);
  const sealClient = createJweClient({
    key: keys.seal.key,
    ...(keys.seal.kid === undefined ? {} : { kid: keys.seal.kid }),
  });
  const watchClient = createJweClient({ key: keys.resolver });
  const watchServer = new JweServer({ keys: keys.resolver });
  let spool: Promise<string> | undefined;
  const spoolDir = () => {
    spool ??= mkdtemp(join(tmpdir(), 'jwe-transport-proxy-'));
    return spool;
  };
  const running = new Map<number, { controller: AbortController; done: Promise<void> }>();
  let own = new Set<string>();
  let nextId = 1;

  const handle = async (
    request: IncomingMessage,
    response: ServerResponse,
    exchange: Exchange,
    controller: AbortController,
  ) => {
    const started = performance.now();
    // A tool that hangs up mid-exchange stops the upstream call too.
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    try {
      const admitted = admit(request, own);
      if ('status' in admitted) {
        exchange.status = admitted.status;
        exchange.code = admitted.code;
        exchange.response.failure = { code: admitted.code, message: admitted.message };
        writeRefusal(response, admitted);
        request.resume();
        return;
      }
      exchange.path = admitted.path;
      exchange.url = new URL(admitted.path, settings.upstream).href;
      if (settings.mode === 'seal') {
        await sealExchange(
          { client: sealClient, agent, upstream: settings.upstream, spoolDir },
          request,
          response,
          exchange,
          controller.signal,
        );
      } else {
        await watchExchange(
          { client: watchClient, server: watchServer, agent, upstream: settings.upstream },
          request,
          response,
          exchange,
          controller.signal,
        );
      }
    } catch (error) {
      // Every expected failure is an answer already; this is a bug or a broken socket: say so, keep serving.
      exchange.outcome = 'failed';
      exchange.code ??= 'ERR_PROXY_INTERNAL';
      exchange.response.failure ??= { code: exchange.code, message: (error as Error).message };
      if (!response.headersSent) writeRefusal(response, { status: 500, ...exchange.response.failure });
      else response.destroy();
    } finally {
      exchange.durationMs = performance.now() - started;
      if (!request.complete) request.resume();
    }
  };

  const server = createServer((request, response) => {
    if (localRoute?.(request, response)) return;
    const id = nextId++;
    const exchange = blankExchange(id, request, settings);
    const controller = new AbortController();
    const done = handle(request, response, exchange, controller).then(() => {
      running.delete(id);
      onExchange(exchange);
    });
    running.set(id, { controller, done });
  });
  // Uploads may take longer than Node's default five minutes; the upstream's --timeout still applies.
  server.requestTimeout = 0;
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const id = nextId++;
    const exchange = blankExchange(id, request, settings);
    exchange.status = 405;
    exchange.code = 'ERR_PROXY_NOT_OPEN';
    exchange.response.failure = {
      code: 'ERR_PROXY_NOT_OPEN',
      message: 'CONNECT is refused: this proxy forwards only to its one --upstream.',
    };
    const body = `${JSON.stringify({ error: { code: 'ERR_PROXY_NOT_OPEN', message: exchange.response.failure.message } })}\n`;
    socket.on('error', () => {});
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    onExchange(exchange);
  });
  server.on('clientError', (_error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const port = await listen(server, settings.port, settings.listen);
  own = ownHosts(settings.listen, port);
  const host = settings.listen.includes(':') ? `[${settings.listen}]` : settings.listen;

  const abort = () => {
    for (const { controller } of running.values()) controller.abort();
  };
  return {
    url: `http://${host}:${port}/`,
    port,
    get inFlight() {
      return running.size;
    },
    abort,
    async close(drain) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (!drain) abort();
      await Promise.all([...running.values()].map(({ done }) => done));
      server.closeAllConnections();
      await closed;
      await agent.close().catch(() => {});
      // A spool that was never made (mkdtemp failed) has nothing to remove and must not fail the close.
      await spool?.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => {});
    },
  };
}
