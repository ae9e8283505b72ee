import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CliError } from '../cli-error.js';
import { policyOf } from '../commands/web.js';
import { admit } from './admission.js';
import { writeRefusal } from './answer.js';
import type { Exchange } from './exchange.js';
import { liveExchange } from './live-row.js';

/** The live view's own paths on the proxy's port; nothing under them is forwarded while `--ui` is on. */
export const LIVE_PREFIX = '/__jwe-proxy/';
const PAGE = new URL('./live.html', import.meta.url);
/** Exchanges a page opened later still sees; older ones are in the HAR file (`--har`). */
const KEPT = 1000;

/**
 * The live view: `GET /__jwe-proxy/` is the page (the inspector's rendering, with a policy that
 * lets it connect only to its own origin), `GET /__jwe-proxy/events` streams every exchange as a
 * server-sent event. Answers only requests addressed to the proxy itself (DNS rebinding).
 */
export class LiveView {
  readonly #html: Buffer;
  readonly #policy: string;
  readonly #kept: string[] = [];
  readonly #listeners = new Set<ServerResponse>();
  #own: () => ReadonlySet<string>;

  private constructor(html: string, own: () => ReadonlySet<string>) {
    this.#html = Buffer.from(html, 'utf8');
    this.#policy = policyOf(html);
    this.#own = own;
  }

  static async load(own: () => ReadonlySet<string>): Promise<LiveView> {
    let html: string;
    try {
      html = await readFile(PAGE, 'utf8');
    } catch {
      throw new CliError(
        'ERR_INPUT',
        'This installation has no live.html next to the CLI; reinstall @jwe-transport/cli.',
      );
    }
    return new LiveView(html, own);
  }

  publish(exchange: Exchange): void {
    const event = `event: exchange\ndata: ${JSON.stringify(liveExchange(exchange))}\n\n`;
    this.#kept.push(event);
    if (this.#kept.length > KEPT) this.#kept.shift();
    for (const listener of this.#listeners) listener.write(event);
  }

  /** Ends every event stream, so the server can close. */
  close(): void {
    for (const listener of this.#listeners) listener.end();
    this.#listeners.clear();
  }

  /** Serves the request when it is the live view's; false otherwise (forward it). */
  route = (request: IncomingMessage, response: ServerResponse): boolean => {
    const target = request.url ?? '';
    if (!target.startsWith(LIVE_PREFIX)) return false;
    const admitted = admit(request, this.#own());
    if ('status' in admitted) {
      writeRefusal(response, admitted);
      return true;
    }
    const path = target.split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response
        .writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Method not allowed.\n');
      return true;
    }
    const common = {
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    if (path === LIVE_PREFIX) {
      response.writeHead(200, {
        ...common,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': this.#html.length,
        'Content-Security-Policy': this.#policy,
        'Cross-Origin-Opener-Policy': 'same-origin',
        'X-Frame-Options': 'DENY',
      });
      response.end(request.method === 'HEAD' ? undefined : this.#html);
      return true;
    }
    if (path === `${LIVE_PREFIX}events`) {
      response.writeHead(200, { ...common, 'Content-Type': 'text/event-stream; charset=utf-8' });
      // A comment first, so the page hears the stream has opened before any exchange.
      response.write(': jwe-transport proxy live view\n\n');
      for (const event of this.#kept) response.write(event);
      this.#listeners.add(response);
      response.on('close', () => this.#listeners.delete(response));
      return true;
    }
    response.writeHead(404, { ...common, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.\n');
    return true;
  };
}
