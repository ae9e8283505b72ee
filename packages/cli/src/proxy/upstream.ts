import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import type { ProxySettings } from './settings.js';

/**
 * The one connection pool to the upstream: the system's CAs plus `--ca`, or no certificate
 * check with `--insecure`, and the timeouts of `--timeout` for connecting, for the answer's
 * head and between body chunks.
 */
export function upstreamAgent(settings: ProxySettings): Agent {
  const tls =
    settings.upstream.protocol === 'https:'
      ? {
          rejectUnauthorized: !settings.insecure,
          ...(settings.ca === undefined ? {} : { ca: [...rootCertificates, settings.ca] }),
        }
      : {};
  return new Agent({
    connect: { timeout: settings.timeoutMs, ...tls },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  });
}

/** Headers that belong to one connection, never forwarded either way (RFC 9110 section 7.6.1). */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** The request's headers without hop-by-hop ones (and those `Connection` names), as pairs. */
export function forwardedHeaders(
  raw: readonly string[],
  drop: ReadonlySet<string> = new Set(),
): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  const named = new Set(
    pairs
      .filter(([name]) => name.toLowerCase() === 'connection')
      .flatMap(([, value]) => value.split(',').map((token) => token.trim().toLowerCase())),
  );
  return pairs.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower) && !drop.has(lower);
  });
}

/** What went wrong reaching the upstream, as the proxy's error code and HTTP status. */
export function upstreamFailure(error: unknown): { status: number; code: string; message: string } {
  const causes: unknown[] = [];
  for (let at: unknown = error; at !== undefined && at !== null && causes.length < 5; ) {
    causes.push(at);
    at = (at as { cause?: unknown }).cause;
  }
  const codes = causes.map((cause) => String((cause as { code?: unknown }).code ?? ''));
  if (codes.some((code) => code.includes('TIMEOUT'))) {
    return {
      status: 504,
      code: 'ERR_PROXY_UPSTREAM_TIMEOUT',
      message: 'The upstream did not answer in time (--timeout); nothing was opened.',
    };
  }
  const tlsCode = codes.find((code) => /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS/.test(code));
  if (tlsCode !== undefined) {
    return {
      status: 502,
      code: 'ERR_PROXY_UPSTREAM_TLS',
      message: `The upstream's certificate was refused (${tlsCode}). Trust its CA with --ca FILE (or, for a test server only, --insecure).`,
    };
  }
  const netCode = codes.find((code) => /^E[A-Z]+$/.test(code)) ?? codes.find((code) => code !== '');
  return {
    status: 502,
    code: 'ERR_PROXY_UPSTREAM_UNREACHABLE',
    message: `The upstream could not be reached or broke off (${netCode ?? 'connection error'}).`,
  };
}
