import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32],
  ['100::', 64], ['2001::', 23],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address embedded in an IPv4-mapped, -compatible or NAT64 IPv6 address, if any. */
function embeddedV4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/**
 * True for addresses a server-side fetch must never reach: loopback, private, link-local, unique-local,
 * multicast, unspecified, reserved and documentation ranges, and IPv6 forms that embed such an IPv4.
 */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(ip.replace(/^\[|\]$/g, ''));
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
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

export class BlockedAddressError extends Error {
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a private or reserved address`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * A `lookup` for http(s).request that refuses blocked addresses. It runs at connect time, so the address
 * checked is the address connected to (no DNS-rebinding gap between check and use).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isBlockedAddress(a.address));
      if (bad) return callback(new BlockedAddressError(hostname, bad.address), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
      callback(null, first.address, first.family);
    });
  };
}
