import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Hono's `bodyLimit`, without its cost on the requests that do not need it (issue 32, the cost of a turn). It looks at
 * `c.req.raw.body` first, which makes `@hono/node-server` build a whole web `Request` (an undici `Request`, a
 * `ReadableStream` over the socket, an `AbortController`) for every request, a GET's included: undici's `Request` was
 * among the largest of the service's own costs in a turn's profile (the turn-cost bench's `--cpu-prof`). A request without a body, or with a `Content-Length` and no
 * `Transfer-Encoding`, is decided from its headers here, as `bodyLimit` would decide it; only a chunked body goes
 * through `bodyLimit`, which counts it as it arrives.
 *
 * @example
 * app.use(bodyCap({ maxSize: 64 * 1024, onError: (c) => c.text('too large', 413) }));
 */
export function bodyCap(options: {
  maxSize: number;
  onError: (c: Context) => Response | Promise<Response>;
}): MiddlewareHandler {
  const counted = bodyLimit(options);
  return async (c, next) => {
    // No body reaches a GET or HEAD handler (the web Request of one has none).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
    return counted(c, next);
  };
}
