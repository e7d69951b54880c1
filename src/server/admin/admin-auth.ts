import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from '../error-response';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Bearer authentication against the config's admin key. Only the key's SHA-256 is kept after start, and the presented
 * key is compared by digest in constant time, so neither memory dumps nor response timing give the key away.
 */
export function adminAuth(adminKey: string): MiddlewareHandler {
  const expected = digest(adminKey);
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]), expected)) {
      c.header('www-authenticate', 'Bearer realm="service-widget admin"');
      return errorResponse(
        c,
        401,
        'unauthorized',
        'A valid admin key is required (Authorization: Bearer <adminKey>).',
      );
    }
    await next();
  };
}
