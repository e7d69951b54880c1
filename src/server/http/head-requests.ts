import type { MiddlewareHandler } from 'hono';

/**
 * `HEAD` as RFC 9110 §9.3.2 has it: the status and headers `GET` would answer, no content. Hono answers a HEAD by
 * running the GET route and dropping its body without reading or cancelling it; for an event stream that body is
 * never finished, so the stream behind it ran on, stuck in its first write (past its own deadline), holding its
 * `openStreamsPerIp` place until the process ended (issue 32: 20 HEADs locked an address out). This cancels the body
 * of every HEAD's response, which ends a stream at once (Hono's stream runs its `onAbort`, the route releases its
 * place) and closes a file being served.
 *
 * Headers-only rather than `405 Allow: GET`: a HEAD is how monitors and proxies check a URL, and it tells them what
 * GET would (401 without a token, 429 over a limit, 200 with `text/event-stream`) at the cost of one short-lived GET.
 *
 * @example
 * app.use(headWithoutBody()); // first, so that it sees every route's response
 */
export function headWithoutBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'HEAD' || c.res.body === null) return;
    await c.res.body.cancel().catch(() => {});
    c.res = new Response(null, c.res);
  };
}
