import type { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import proxyAddr from 'proxy-addr';

/**
 * The address a request counts against (DESIGN "The public edge", Limits). With `trustProxy: 0` it is the socket's
 * peer and X-Forwarded-For is ignored; with `trustProxy: N` it is the N-th address from the right of X-Forwarded-For
 * (the one the outermost trusted proxy saw), or the leftmost when the header has fewer. proxy-addr walks the header
 * from the right as Express does with a number (`compileTrust`); whatever a client writes to the left of the trusted
 * hops never becomes its address.
 *
 * A request with no socket (Hono's `app.request` in tests; no deployment serves that way) has the peer `"local"`:
 * such requests share one address, and a trusted X-Forwarded-For still applies to them.
 *
 * @example
 * clientAddress(c, 1); // behind one proxy: the address that proxy appended
 */
export function clientAddress(c: Context, trustProxy: number): string {
  return limitKey(forwardedAddress(c, trustProxy));
}

/**
 * What a limit counts by: an IPv4 address (an IPv4-mapped IPv6 one as IPv4), or an IPv6 address's /64. An ordinary
 * IPv6 customer holds a whole /64 and picks source addresses from it at will, so counting single IPv6 addresses let
 * one client rotate past every per-address limit (review of issue 18).
 */
export function limitKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

function forwardedAddress(c: Context, trustProxy: number): string {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const peer = incoming?.socket?.remoteAddress ?? 'local';
  if (trustProxy === 0) return peer;
  const forwardedFor = c.req.header('x-forwarded-for');
  // Only what proxy-addr reads: the peer and the header (a socket-less request has no IncomingMessage to pass).
  const request = {
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
  return proxyAddr(request, (_address, hop) => hop < trustProxy);
}
