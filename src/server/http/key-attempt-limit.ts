import type { MiddlewareHandler } from 'hono';
import type { KeyAttempts } from '../guards/key-attempts';
import { clientAddress } from './client-address';
import { errorResponse } from './error-response';

export interface KeyAttemptLimitOptions {
  attempts: KeyAttempts;
  /** The config's `trustProxy`: the address counted is the one client-address.ts finds. */
  trustProxy: number;
  /** Path prefixes whose requests need a key: the admin and agent API, the push API, the task API. */
  prefixes: readonly string[];
  /** Other paths whose `401` is a failed key (a resume link's token). */
  paths?: readonly RegExp[];
}

/**
 * The failed-key limit at the edge, in one place for every API that takes a key (guards/key-attempts.ts): before the
 * route, an address over the limit gets `429 rate_limited` with `Retry-After` whatever key it sends; after it, a `401`
 * counts as a failed attempt (on these routes a 401 means only that: a missing or wrong key). Counting the answer rather
 * than each API's key check keeps the check of every key (constant time, no early exit) as it was.
 *
 * @example
 * app.use(keyAttemptLimit({ attempts, trustProxy: config.trustProxy, prefixes: ['/v0/admin', PUSH_API_BASE] }));
 */
export function keyAttemptLimit({
  attempts,
  trustProxy,
  prefixes,
  paths = [],
}: KeyAttemptLimitOptions): MiddlewareHandler {
  const needsKey = (path: string) =>
    prefixes.some((p) => path === p || path.startsWith(`${p}/`)) || paths.some((re) => re.test(path));
  return async (c, next) => {
    if (!needsKey(c.req.path)) return next();
    const address = clientAddress(c, trustProxy);
    // Fails open: with the database down the routes answer as they would without the limit (and need it too).
    const wait = await attempts.waitOf(address).catch(() => 0);
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return errorResponse(
        c,
        429,
        'rate_limited',
        `Too many failed key attempts from this address: at most ${attempts.perWindow} a minute. Try again in ${wait} s.`,
      );
    }
    await next();
    if (c.res.status === 401) await attempts.failed(address).catch(() => {});
  };
}
