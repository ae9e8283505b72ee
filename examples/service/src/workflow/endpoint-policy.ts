import { BlockList, isIP } from 'node:net';

// Addresses a caller must not make the service reach on its behalf (loopback, private, link-local,
// carrier-grade NAT, unspecified, multicast, IPv6 unique-local and mapped forms of all of these).
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is one the service must not deliver to unless the operator allowed its host. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return internal.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Host names as URL.hostname gives them: lower case, IPv6 without brackets. */
export const normalizeHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');

/**
 * Which webhook endpoints a subscription may name: any host the operator listed (http or https),
 * otherwise only https to a host that is not an internal address. Names are checked again when
 * delivering, after DNS (see delivery.ts), so a public name that resolves inside is refused too.
 */
export class EndpointPolicy {
  readonly #allowed: Set<string>;

  constructor(allowHosts: readonly string[]) {
    this.#allowed = new Set(allowHosts.map(normalizeHost));
  }

  isAllowedHost(hostname: string): boolean {
    return this.#allowed.has(normalizeHost(hostname));
  }

  /** Why `url` may not be used, or undefined when it may. */
  refusal(url: URL): string | undefined {
    const host = normalizeHost(url.hostname);
    if (url.username !== '' || url.password !== '') return 'the endpoint must not carry credentials';
    if (this.isAllowedHost(host)) return undefined;
    if (url.protocol !== 'https:')
      return 'the endpoint must use https (plain http only to hosts the operator allows)';
    if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isInternalAddress(host)))
      return `${host} is an internal address; the operator has not allowed it (WEBHOOK_ALLOW_HOSTS)`;
    return undefined;
  }
}
