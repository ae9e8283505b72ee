import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CliError, usageError } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { writeJson, writeText } from '../io.js';

/** The inspector page, copied next to this bundle at build time (see scripts/copy-inspector.mjs). */
const PAGE = new URL('./inspector.html', import.meta.url);

/** The policy the page carries in its <meta> tag; served as a header too, plus what only a header can say. */
export function policyOf(html: string): string {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  if (!meta)
    throw new CliError(
      'ERR_INPUT',
      'The bundled inspector.html has no Content-Security-Policy; refusing to serve it.',
    );
  return `${meta}; frame-ancestors 'none'`;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw usageError(
      `--port takes a port number from 0 to 65535 (0: any free port); got ${JSON.stringify(text)}.`,
    );
  return Number(text);
}

/**
 * Answers only for its own address: a page on another site can point a hostname of its own at
 * 127.0.0.1 (DNS rebinding) and would otherwise read this server's answers as same-origin.
 */
export function handler(html: string, policy: string, port: () => number) {
  const body = Buffer.from(html, 'utf8');
  return (request: IncomingMessage, response: ServerResponse) => {
    const host = request.headers.host;
    const own = [`127.0.0.1:${port()}`, `localhost:${port()}`];
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (host === undefined || host === '') {
      response
        .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('A Host header is required.\n');
      return;
    }
    if (!own.includes(host.toLowerCase())) {
      response
        .writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('This server answers only for its own address.\n');
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/' && path !== '/inspector.html') {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response
        .writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Method not allowed.\n');
      return;
    }
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': body.length,
      'Content-Security-Policy': policy,
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? usageError(
              `Cannot listen on 127.0.0.1:${port} (${error.code}); choose another --port, or --port 0 for any free one.`,
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

/** The platform's "open this URL" command; a failure is reported, never fatal (the URL is printed anyway). */
export function openBrowser(url: string, warn: (text: string) => Promise<void>): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      void warn(
        `Could not start a browser (${command}: ${error.code ?? error.message}); open ${url} yourself.`,
      );
    });
    child.unref();
  } catch (error) {
    void warn(`Could not start a browser (${(error as Error).message}); open ${url} yourself.`);
  }
}

/** `web`: serves the inspector page on 127.0.0.1 until the process is stopped. */
export async function webCommand(ctx: CommandContext): Promise<ExitCode> {
  if (ctx.input !== undefined) throw usageError('web takes no input; paste or open files in the page.');
  const port = parsePort(ctx.values.port);
  let html: string;
  try {
    html = await readFile(PAGE, 'utf8');
  } catch {
    throw new CliError(
      'ERR_INPUT',
      'This installation has no inspector.html next to the CLI; reinstall @jwe-transport/cli.',
    );
  }
  let bound = port;
  const server = createServer(handler(html, policyOf(html), () => bound));
  bound = await listen(server, port);
  const url = `http://127.0.0.1:${bound}/`;
  await ctx.note(
    `Serving the envelope inspector at ${url} (only this machine can reach it; Ctrl-C stops it).`,
  );
  if (ctx.json) await writeJson(ctx.io.stdout, { url });
  else await writeText(ctx.io.stdout, `${url}\n`);
  if (ctx.values['no-open'] !== true) openBrowser(url, ctx.warn);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return EXIT.OK;
}
