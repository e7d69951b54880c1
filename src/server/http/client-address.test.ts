import { describe, expect, it } from 'vitest';
import { limitKey } from './client-address';

describe('limitKey(): what a per-address limit counts by', () => {
  it('counts an IPv4 address as itself, and an IPv4-mapped IPv6 address as the IPv4 one', () => {
    expect(limitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(limitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitKey('local')).toBe('local');
  });

  it('counts every address of one IPv6 /64 as one: rotating source addresses does not escape a limit', () => {
    const one = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:aaaa:bbbb:cccc:dddd',
      '2001:0db8:0001:0002:ffff::9',
      '2001:DB8:1:2::',
    ].map(limitKey);
    expect(new Set(one)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(limitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(limitKey('::1')).toBe('0:0:0:0::/64');
    expect(limitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
