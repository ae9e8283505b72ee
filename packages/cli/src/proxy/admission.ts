import type { IncomingMessage } from 'node:http';

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** The `Host` values this proxy answers to: its own address and port, nothing else. */
export function ownHosts(listen: string, port: number): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  hosts.add(listen.includes(':') ? `[${listen}]:${port}` : `${listen}:${port}`);
  return hosts;
}

/**
 * The path to forward, or why the request is refused. Not an open proxy: a request in absolute
 * form for another host, and one whose `Host` is not this proxy's own address (a page on
 * another site whose name resolves to 127.0.0.1: DNS rebinding) never reach the upstream.
 */
export function admit(request: IncomingMessage, own: ReadonlySet<string>): { path: string } | Refusal {
  const host = request.headers.host;
  const target = request.url ?? '';
  if (!target.startsWith('/')) {
    let absolute: URL | undefined;
    try {
      absolute = new URL(target);
    } catch {
      absolute = undefined;
    }
    if (absolute === undefined || !own.has(absolute.host.toLowerCase()) || absolute.protocol !== 'http:') {
      return {
        status: 403,
        code: 'ERR_PROXY_NOT_OPEN',
        message:
          'This proxy forwards only to its one --upstream; it is not an open proxy. Send the request to ' +
          'this address with the path alone (http://127.0.0.1:PORT/path), not another host.',
      };
    }
    return admitHost(host, own) ?? { path: `${absolute.pathname}${absolute.search}` };
  }
  return admitHost(host, own) ?? { path: target };
}

function admitHost(host: string | undefined, own: ReadonlySet<string>): Refusal | undefined {
  if (host === undefined || host === '') {
    return { status: 400, code: 'ERR_PROXY_HOST', message: 'A Host header is required.' };
  }
  if (!own.has(host.toLowerCase())) {
    return {
      status: 421,
      code: 'ERR_PROXY_HOST',
      message:
        `This proxy answers only requests addressed to itself (Host ${[...own][0]}), not ${JSON.stringify(host.slice(0, 100))}. ` +
        "Point the tool at the proxy's own address.",
    };
  }
  return undefined;
}
