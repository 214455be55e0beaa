import { isIPv4, isIPv6 } from 'node:net';

/**
 * The rate-limit bucket of a client address: an IPv4 address as it is; an IPv6 address by its /64 (one
 * subscriber line or host gets a whole /64, so limiting per address would let one client rotate through
 * 2^64 of them); an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`, how a dual-stack socket shows IPv4) as
 * the IPv4 address. Anything else (not an IP) is returned as it is.
 *
 * @example
 * clientBucket('203.0.113.9') // '203.0.113.9'
 * clientBucket('2001:db8:1:2:a:b:c:d') // '2001:db8:1:2::/64'
 * clientBucket('::ffff:203.0.113.9') // '203.0.113.9'
 */
export function clientBucket(ip: string): string {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address.replace(/%.*$/, ''));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}
