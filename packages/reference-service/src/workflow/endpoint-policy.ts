import { BlockList, isIP } from 'node:net';

// Addresses a caller must not make the service reach on its behalf (loopback, private, link-local,
// carrier-grade NAT, unspecified, multicast, IPv6 unique-local, and every IPv6 form that carries an
// IPv4 address: see embeddedIPv4 below). One list per family: a single BlockList also matches an
// IPv4 address against its IPv6 rules as ::ffff:a.b.c.d, which the mapped range below covers, so
// every public IPv4 address would count as internal.
const internal4 = new BlockList();
const internal6 = new BlockList();
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
  internal4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  // IPv4-mapped, and NAT64 (well-known prefix and local-use prefix): refused whatever they carry.
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Teredo carries an obfuscated IPv4 address; nothing legitimate receives webhooks on it.
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal6.addSubnet(network, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (as `isIP` accepts it, dotted IPv4 tail included). */
function ipv6Bytes(address: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [, a, b, c, d] = dotted.map(Number) as [number, number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  all.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that route to it: IPv4-compatible
 * (`::a.b.c.d`, deprecated but still parsed), IPv4-mapped (`::ffff:a.b.c.d`), NAT64
 * (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::/48`). `[::127.0.0.1]` or `[2002:7f00:1::1]`
 * reach loopback on hosts that route them, so they are judged by the IPv4 address inside.
 */
export function embeddedIPv4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  const bytes = ipv6Bytes(address);
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
  const v4 = (at: number) => Array.from(bytes.subarray(at, at + 4)).join('.');
  if (zero(0, 10) && ((bytes[10] === 0 && bytes[11] === 0) || (bytes[10] === 0xff && bytes[11] === 0xff)))
    return v4(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12))
    return v4(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(2);
  return undefined;
}

/** Whether an IP address is one the service must not deliver to unless the operator allowed its host. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return internal4.check(address, 'ipv4');
  const carried = embeddedIPv4(address);
  return internal6.check(address, 'ipv6') || (carried !== undefined && internal4.check(carried, 'ipv4'));
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
