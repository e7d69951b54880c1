import type { Context, MiddlewareHandler } from 'hono';
import type { RequestIdVariables } from 'hono/request-id';
import { type Logger, redactSecrets, withRequestId } from '../platform/logger';

export const REQUEST_ID_HEADER = 'x-request-id';
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The request's id for `hono/request-id`'s `generator`: the caller's `x-request-id` when it is 1-128 characters of
 * `A-Za-z0-9._-` (a proxy's or a client's, so that one id follows the request through every hop), a new UUID
 * otherwise. Hono's own check admits `=` and refuses `.`; DESIGN names this set.
 */
export function requestIdOf(c: Context): string {
  const theirs = c.req.header(REQUEST_ID_HEADER);
  return theirs && WELL_FORMED_REQUEST_ID.test(theirs) ? theirs : crypto.randomUUID();
}

/**
 * After `requestId()`: answers the id in `x-request-id`, runs the request with every log line carrying it (in
 * `reqId`, logger.ts), and ends with the access line (at debug, a line with the request's headers first).
 *
 * @example
 * app.use(requestId({ headerName: '', generator: requestIdOf }), requestLog(logger));
 */
export function requestLog(logger: Logger): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const reqId = c.get('requestId');
    c.header(REQUEST_ID_HEADER, reqId);
    await withRequestId(reqId, async () => {
      const started = performance.now();
      // At debug, what came in: the headers tell a CORS or proxy problem apart (credentials redacted, logger.ts).
      // Getters: read only when the line is written, not for every request at info (issue 32).
      logger.debug('request received', {
        method: c.req.method,
        get path() {
          return redactSecrets(c.req.path);
        },
        get headers() {
          return Object.fromEntries(c.req.raw.headers);
        },
      });
      await next();
      // Again after the handler when it answered with a `Response` of its own, which drops the header set before
      // (setting it then copies the response: only when needed).
      if (c.res.headers.get(REQUEST_ID_HEADER) !== reqId) c.header(REQUEST_ID_HEADER, reqId);
      // A load balancer's probes and a scraper's pulls come every few seconds: answered well, they are at debug, so the
      // info log is the traffic; a probe that fails (a 503 from /readyz) stays at info.
      const level = PROBE_PATHS.has(c.req.path) && c.res.status < 400 ? 'debug' : 'info';
      logger[level]('request', {
        method: c.req.method,
        // A preview's path carries its token (`/preview/pv_…/…`): the line shows the path without it.
        path: redactSecrets(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    });
  };
}
