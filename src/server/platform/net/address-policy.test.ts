// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isPublicAddress } from './address-policy';

describe('isPublicAddress()', () => {
  it.each([
    '0.0.0.0',
    '0.255.255.255',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
  ])('refuses the special-purpose IPv4 address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    '2001:2::1',
    '2002:7f00:1::1',
    '2002:0808:0808::1',
    '3fff::1',
    'fc00::1',
    'fd00::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
  ])('refuses the special-purpose or IPv4-carrying IPv6 address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '35.207.69.21',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '192.0.1.1',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
  ])('accepts the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    '',
    'localhost',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '[::1]',
    '8.8.8.8:443',
    '8.8.8',
    '1.2.3.4.5',
    '::ffff:999.0.0.1',
  ])('refuses %j, which is not a canonical IP address', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe('isLoopbackAddress()', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])(
    'is true for %s',
    (ip) => {
      expect(isLoopbackAddress(ip)).toBe(true);
    },
  );

  it.each([
    '0.0.0.0',
    '::',
    '10.0.0.1',
    '169.254.169.254',
    '8.8.8.8',
    'fe80::1',
    '::ffff:10.0.0.1',
    '64:ff9b::127.0.0.1',
    'localhost',
  ])('is false for %s', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(false);
  });
});
