import type { Refusal } from './admission.js';

/**
 * What to do with a redirect the upstream answers (the proxy never follows one): a Location on
 * the upstream's own origin is rewritten to the proxy's address, so the tool comes back through
 * it; another origin is passed on for bodiless calls and refused for sealed ones, whose tool would
 * otherwise repeat its plaintext body straight to a stranger.
 */
export function sameOriginRedirect(
  answer: { status: number; headers: Headers },
  upstream: URL,
  proxyHost: string,
  sealed: boolean,
): { location: string | undefined } | { refusal: Refusal } {
  const location = answer.headers.get('location');
  if (answer.status < 300 || answer.status > 399 || location === null) return { location: undefined };
  let target: URL;
  try {
    target = new URL(location, upstream);
  } catch {
    return { location: undefined };
  }
  if (target.origin === upstream.origin) {
    return { location: `http://${proxyHost}${target.pathname}${target.search}${target.hash}` };
  }
  if (!sealed) return { location: undefined };
  return {
    refusal: {
      status: 502,
      code: 'ERR_PROXY_REDIRECT_OFF_ORIGIN',
      message: `The upstream redirected a sealed request (${answer.status}) to another origin, ${target.origin}; the proxy does not send sealed bodies anywhere but --upstream.`,
    },
  };
}
