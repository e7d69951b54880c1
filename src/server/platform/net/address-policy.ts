import { isIPv4, isIPv6 } from 'node:net';

// Which IP addresses the service may connect to on an integrator's behalf (DESIGN: custom actions, "private,
// loopback and link-local addresses are refused in every encoding"). The input is an address as `dns.lookup` or a
// WHATWG URL hands it over (`127.0.0.1`, `::ffff:7f00:1`, `fe80::1%eth0`); anything that is not a well-formed IP
// address is refused, so a caller can never slip a hostname or an odd spelling past the check.

type V4Range = readonly [base: number, prefix: number];
type V6Range = readonly [base: bigint, prefix: number];

/** IPv4 ranges that are not globally reachable unicast (IANA special-purpose registry, RFC 6890 and successors). */
const V4_REFUSED: readonly V4Range[] = [
  v4('0.0.0.0', 8), // "this network"; 0.0.0.0 reaches the local host on Linux
  v4('10.0.0.0', 8), // private
  v4('100.64.0.0', 10), // carrier-grade NAT
  v4('127.0.0.0', 8), // loopback
  v4('169.254.0.0', 16), // link-local, including the cloud metadata service 169.254.169.254
  v4('172.16.0.0', 12), // private
  v4('192.0.0.0', 24), // IETF protocol assignments
  v4('192.0.2.0', 24), // TEST-NET-1
  v4('192.88.99.0', 24), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0', 16), // private
  v4('198.18.0.0', 15), // benchmarking
  v4('198.51.100.0', 24), // TEST-NET-2
  v4('203.0.113.0', 24), // TEST-NET-3
  v4('224.0.0.0', 4), // multicast
  v4('240.0.0.0', 4), // reserved, and 255.255.255.255 broadcast
];

/**
 * IPv6: only global unicast (2000::/3) can be public at all, which by itself refuses ::, ::1, IPv4-compatible and
 * IPv4-mapped addresses (::ffff:0:0/96), 64:ff9b::/96 NAT64, 100::/64 discard, fc00::/7 unique-local,
 * fe80::/10 link-local, fec0::/10 site-local and ff00::/8 multicast. Inside 2000::/3 these are refused too.
 */
const V6_GLOBAL_UNICAST: V6Range = v6('2000::', 3);
const V6_REFUSED: readonly V6Range[] = [
  v6('2001::', 32), // Teredo: tunnels to an IPv4 address we cannot see
  v6('2001:2::', 48), // benchmarking
  v6('2001:10::', 28), // ORCHID (deprecated)
  v6('2001:20::', 28), // ORCHIDv2
  v6('2001:db8::', 32), // documentation
  v6('2002::', 16), // 6to4 (deprecated, RFC 7526): tunnels to the embedded IPv4 address
  v6('3fff::', 20), // documentation (RFC 9637)
  v6('5f00::', 16), // SRv6 segment identifiers
];
/** NAT64 (RFC 6052): the address stands for the embedded IPv4 address, so that one decides. */
const V6_NAT64: V6Range = v6('64:ff9b::', 96);
/** IPv4-mapped: refused as such, and also never loopback-exempt unless the embedded IPv4 address is loopback. */
const V6_MAPPED: V6Range = v6('::ffff:0:0', 96);

/**
 * Whether the service may connect to this address for an integrator: a globally reachable unicast IPv4 or IPv6
 * address. Private, loopback, link-local (cloud metadata), CGNAT, documentation, multicast and reserved ranges are
 * refused, and so are IPv6 forms that carry an IPv4 address (mapped, 6to4, Teredo) unless, for NAT64, the embedded
 * IPv4 address is itself public.
 *
 * @example
 * isPublicAddress('93.184.215.14'); // true
 * isPublicAddress('169.254.169.254'); // false
 * isPublicAddress('::ffff:127.0.0.1'); // false
 */
export function isPublicAddress(ip: string): boolean {
  const v4n = parseV4(ip);
  if (v4n !== null) return !V4_REFUSED.some((range) => inV4(v4n, range));
  const v6n = parseV6(ip);
  if (v6n === null) return false;
  if (inV6(v6n, V6_NAT64)) return isPublicAddress(v4ToString(Number(v6n & 0xffffffffn)));
  if (!inV6(v6n, V6_GLOBAL_UNICAST)) return false;
  return !V6_REFUSED.some((range) => inV6(v6n, range));
}

/**
 * Whether the address is loopback: 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address. Only the `allowHttpLoopback`
 * development switch uses it; 0.0.0.0 and :: are not loopback here even though Linux routes them to the local host.
 *
 * @example
 * isLoopbackAddress('127.0.0.1'); // true
 * isLoopbackAddress('10.0.0.1'); // false
 */
export function isLoopbackAddress(ip: string): boolean {
  const v4n = parseV4(ip);
  if (v4n !== null) return v4n >>> 24 === 127;
  const v6n = parseV6(ip);
  if (v6n === null) return false;
  if (v6n === 1n) return true;
  return inV6(v6n, V6_MAPPED) && Number((v6n >> 24n) & 0xffn) === 127;
}

function v4(address: string, prefix: number): V4Range {
  const n = parseV4(address);
  if (n === null) throw new Error(`bad IPv4 range ${address}`);
  return [n, prefix];
}

function v6(address: string, prefix: number): V6Range {
  const n = parseV6(address);
  if (n === null) throw new Error(`bad IPv6 range ${address}`);
  return [n, prefix];
}

function inV4(n: number, [base, prefix]: V4Range): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (n & mask) >>> 0 === (base & mask) >>> 0;
}

function inV6(n: bigint, [base, prefix]: V6Range): boolean {
  const shift = BigInt(128 - prefix);
  return n >> shift === base >> shift;
}

/** Dotted-quad only (what `dns.lookup` and the WHATWG URL parser produce); `net.isIPv4` refuses other spellings. */
function parseV4(ip: string): number | null {
  if (!isIPv4(ip)) return null;
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function v4ToString(n: number): string {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
}

/** An IPv6 address (optionally with a zone id, optionally ending in a dotted quad) as a 128-bit integer. */
function parseV6(input: string): bigint | null {
  const ip = input.replace(/%.*$/, '');
  if (!isIPv6(ip)) return null;
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = parseV4(dotted[1]);
    if (n === null) return null;
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(fill).fill('0'), ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}
