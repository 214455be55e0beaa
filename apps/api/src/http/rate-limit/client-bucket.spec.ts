import { clientBucket } from './client-bucket';

describe('clientBucket', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(clientBucket('203.0.113.10')).toBe('203.0.113.10');
  });

  it('groups IPv6 by its /64, however the address is written', () => {
    const a = clientBucket('2001:db8:1:2:a:b:c:d');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:0DB8:0001:0002:ffff:ffff:ffff:fffe')).toBe(a);
    expect(clientBucket('2001:db8:1:2::1')).toBe(a);
    expect(clientBucket('[2001:db8:1:2::99]')).toBe(a);
    expect(clientBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientBucket('2001:db8:1:3::1')).not.toBe(a);
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('2001:db8::1.2.3.4')).toBe('2001:db8:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(clientBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientBucket('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(clientBucket('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('returns anything that is not an IP as it is', () => {
    expect(clientBucket('unknown')).toBe('unknown');
  });
});
