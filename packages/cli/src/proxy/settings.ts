import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { CliError, usageError } from '../cli-error.js';
import type { OptionValues } from '../options.js';

/** Everything `jwe-transport proxy` was told, checked once before anything listens. */
export interface ProxySettings {
  /** The one upstream origin (`https://api.example.com`), no path. */
  upstream: URL;
  /** `seal`: tools send plaintext and the proxy seals; `watch`: bytes pass untouched, copies are opened. */
  mode: 'seal' | 'watch';
  /** The address to listen on: 127.0.0.1 unless `--listen` names another. */
  listen: string;
  port: number;
  /** Seconds to wait for the upstream to connect, to answer, and between body chunks. */
  timeoutMs: number;
  /** Extra CA certificates (PEM) trusted besides the system's, from `--ca`. */
  ca: string | undefined;
  /** `--insecure`: the upstream's certificate is not checked (test servers only; every line says so). */
  insecure: boolean;
  verbose: boolean;
  /** Where the HAR of the session goes, or undefined. */
  har: string | undefined;
  ui: boolean;
}

const DEFAULT_TIMEOUT_SECONDS = 60;

export function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw usageError(
      `--port takes a port number from 0 to 65535 (0: any free port); got ${JSON.stringify(text)}.`,
    );
  return Number(text);
}

function parseUpstream(text: string | undefined): URL {
  if (text === undefined) {
    throw usageError(
      'proxy needs --upstream URL: the origin to forward to, e.g. --upstream https://api.example.com',
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(
      `--upstream ${JSON.stringify(text)} is not a URL; give an origin such as https://api.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`--upstream must be http: or https:; got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw usageError('--upstream must not carry a user name or password; send credentials as headers.');
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw usageError(
      `--upstream is an origin only (scheme, host, port); got the path ${JSON.stringify(url.pathname + url.search)}. ` +
        'Requests keep the path they were sent with.',
    );
  }
  return new URL(url.origin);
}

function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0 || Number(text) > 86_400) {
    throw usageError(`--timeout takes seconds, more than 0 and at most 86400; got ${JSON.stringify(text)}.`);
  }
  return Math.round(Number(text) * 1000);
}

function parseListen(text: string | undefined): string {
  if (text === undefined) return '127.0.0.1';
  if (isIP(text) === 0) {
    throw usageError(
      `--listen takes an IP address of this machine (e.g. 0.0.0.0 or 192.168.1.20); got ${JSON.stringify(text)}.`,
    );
  }
  return text;
}

async function readCa(path: string | undefined): Promise<string | undefined> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      'ERR_INPUT',
      `Cannot read the CA file ${JSON.stringify(path)} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new CliError(
      'ERR_INPUT',
      `--ca ${JSON.stringify(path)} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`,
    );
  }
  return text;
}

export async function proxySettings(values: OptionValues): Promise<ProxySettings> {
  const upstream = parseUpstream(values.upstream);
  if (values.insecure === true && upstream.protocol !== 'https:') {
    throw usageError('--insecure turns off certificate checks, which only an https: upstream has.');
  }
  return {
    upstream,
    mode: values.watch === true ? 'watch' : 'seal',
    listen: parseListen(values.listen),
    port: parsePort(values.port),
    timeoutMs: parseTimeout(values.timeout),
    ca: await readCa(values.ca),
    insecure: values.insecure === true,
    verbose: values.verbose === true,
    har: values.har,
    ui: values.ui === true,
  };
}

/** True for addresses only this machine can reach. */
export function isLoopback(address: string): boolean {
  return address === '127.0.0.1' || address === '::1' || address.startsWith('127.');
}
