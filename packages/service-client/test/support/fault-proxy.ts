// A small HTTP proxy on 127.0.0.1 that passes requests to a real server and injects the faults
// of a bad network on the requests a test picks: a connection reset part way through the request
// body, an answer of its own instead of the server's, or the server's answer lost on the way back.
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** Forward the request, then reset both connections once this many body bytes have passed. */
  | { kind: 'reset-after-bytes'; bytes: number }
  /** Read the whole request, do not forward it, and answer this instead. */
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: string }
  /** Forward the request, let the server answer, then reset the client's connection unanswered. */
  | { kind: 'drop-response' };

export interface ProxiedRequest {
  method: string;
  path: string;
  /** 0-based count of requests to this method and path so far. */
  index: number;
}

export interface ProxyEntry {
  method: string;
  path: string;
  /** The status the client got, or what happened instead. */
  outcome: number | 'reset' | 'dropped';
  fault: Fault['kind'] | 'none';
}

export interface FaultProxy {
  url: string;
  log: ProxyEntry[];
  close(): Promise<void>;
}

export async function startFaultProxy(
  target: string,
  decide: (request: ProxiedRequest, raw: IncomingMessage) => Fault | undefined,
): Promise<FaultProxy> {
  const upstream = new URL(target);
  const counts = new Map<string, number>();
  const log: ProxyEntry[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const key = `${req.method} ${path}`;
    const index = counts.get(key) ?? 0;
    counts.set(key, index + 1);
    const fault = decide({ method: req.method ?? '', path, index }, req);
    const entry: ProxyEntry = {
      method: req.method ?? '',
      path,
      outcome: 'reset',
      fault: fault?.kind ?? 'none',
    };
    log.push(entry);

    if (fault?.kind === 'respond') {
      req.resume();
      req.on('end', () => {
        entry.outcome = fault.status;
        res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers });
        res.end(fault.body ?? '');
      });
      return;
    }
    // The Host header passes unchanged, so the server builds its URLs (the storage URL of a
    // grant) on the proxy's address and the storage POSTs come through the proxy too.
    const forward = request({
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    });
    let broken = false;
    const reset = () => {
      broken = true;
      entry.outcome = 'reset';
      forward.destroy();
      req.socket.destroy();
    };
    forward.on('error', () => req.socket.destroy());
    forward.on('response', (answer) => {
      if (fault?.kind === 'drop-response') {
        answer.resume();
        answer.on('end', () => {
          entry.outcome = 'dropped';
          req.socket.destroy();
        });
        return;
      }
      entry.outcome = answer.statusCode ?? 0;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    let passed = 0;
    req.on('data', (chunk: Buffer) => {
      if (broken) return;
      if (fault?.kind === 'reset-after-bytes' && passed + chunk.length >= fault.bytes) {
        forward.write(chunk.subarray(0, Math.max(0, fault.bytes - passed)));
        passed = fault.bytes;
        reset();
        return;
      }
      passed += chunk.length;
      if (!forward.write(chunk)) {
        req.pause();
        forward.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      if (!broken) forward.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
