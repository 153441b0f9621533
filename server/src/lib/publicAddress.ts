import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses no webhook may reach (docs/api.md#webhooks): this machine, private networks, link-local,
 * carrier-grade NAT, multicast, unspecified and reserved ranges. BlockList also matches an IPv4 range
 * written as an IPv4-mapped IPv6 address (::ffff:127.0.0.1), so those need no rule of their own.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: another way to write an IPv4 address
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, as text) is one a webhook may be sent to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A URL's host without the brackets of an IPv6 literal. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether the host, as written, is certainly not public: localhost, or a literal address in a range
 * above. A name is only known once resolved, which every send does (resolvePinned).
 */
export function isPrivateHost(url: URL): boolean {
  const host = bareHost(url).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The address to connect to for a host: a literal as it is, a name resolved once, here. With
 * `allowPrivate` false every address the name has must be public, or none is used (undefined): the
 * connection then goes to the address checked, so a second lookup (DNS rebinding) cannot move it.
 */
export async function resolvePinned(url: URL, allowPrivate: boolean): Promise<PinnedAddress | undefined> {
  if (!allowPrivate && isPrivateHost(url)) return undefined;
  const host = bareHost(url);
  const literal = isIP(host);
  const found = literal !== 0 ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true });
  if (!allowPrivate && found.some(({ address }) => !isPublicAddress(address))) return undefined;
  const [first] = found;
  if (!first) throw new Error(`${host} has no address`);
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
