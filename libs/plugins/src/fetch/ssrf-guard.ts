import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const BLOCKED_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * IPv6 forms whose last 32 bits are an IPv4 address that is what gets reached: IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96), IPv4-translated (::ffff:0:0:0/96) and the well-known NAT64
 * prefix (64:ff9b::/96, RFC 6052). They are judged by that IPv4 address, so a public one stays reachable.
 */
const V4_EMBEDDING_PREFIXES = ['::ffff:', '::', '::ffff:0:', '64:ff9b::'];

/**
 * Blocked whatever they embed: 6to4 (2002::/16) goes through relays we do not choose (RFC 7526
 * deprecates it) and local-use NAT64 (64:ff9b:1::/48, RFC 8215) through a site's own translator, whose
 * mapping may lead into internal networks; neither is used by a public origin we need to reach.
 */
const BLOCKED_V6: readonly (readonly [string, number])[] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  ['2001::', 23],
  ['2002::', 16],
  ['64:ff9b:1::', 48],
];

// BlockList compares parsed addresses, so every spelling of an IPv6 address (zeros written out,
// dotted or hex tail) meets the same rules.
const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) {
  blocked.addSubnet(net, prefix, 'ipv4');
  for (const form of V4_EMBEDDING_PREFIXES) blocked.addSubnet(`${form}${net}`, 96 + prefix, 'ipv6');
}
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6');

/**
 * True for addresses a server-side fetch must never reach: loopback, private, link-local, unique-local,
 * multicast, unspecified, reserved and documentation ranges, IPv6 forms that embed such an IPv4, 6to4
 * and local-use NAT64.
 */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  // A zone index only makes sense on link-local addresses, which are blocked anyway.
  if (family === 6) return ip.includes('%') || blocked.check(ip, 'ipv6');
  return true;
}

/**
 * Checks a URL's hostname before any DNS: an IP literal in a blocked range, or a localhost name. (Names
 * that resolve to blocked addresses are caught at connect time by {@link guardedLookup}.)
 * The WHATWG URL parser has already turned decimal/octal/hex IPv4 spellings into dotted form.
 */
export function isBlockedHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isBlockedAddress(host);
}

/**
 * A host that resolved to a blocked address. The message names the host only: which internal address a
 * name leads to is itself a finding for whoever probes with it.
 */
export class BlockedAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a private or reserved address`);
    this.name = 'BlockedAddressError';
  }
}

/** DNS resolution as {@link guardedLookup} uses it: all addresses of a name (`dns.lookup` by default). */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for http(s).request that refuses blocked addresses. It runs at connect time, so the address
 * checked is the address connected to (no DNS-rebinding gap between check and use). `resolve` is
 * replaceable so tests can make a name resolve anywhere.
 */
export function guardedLookup(allowPrivate: boolean, resolve: ResolveAll = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, '', 4);
      if (!allowPrivate && list.some((a) => isBlockedAddress(a.address))) return callback(new BlockedAddressError(hostname), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
      callback(null, first.address, first.family);
    });
  };
}
