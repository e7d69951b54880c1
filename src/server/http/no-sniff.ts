import type { MiddlewareHandler } from 'hono';

const HEADER = 'x-content-type-options';

/**
 * `X-Content-Type-Options: nosniff` on every response (DESIGN "The cost of a turn", issue 32): a browser then never
 * runs a JSON answer, an error page or a file as a script or a stylesheet of another type than it is served as. Every
 * response rather than only JSON, as the SDK files and the console already had it: no response of this service is
 * meant to be sniffed.
 *
 * Set before the handler, so `c.json()` and `c.body()` answer with it at no cost; again after it only when the handler
 * returned a `Response` of its own (the task API's errors), since setting it then copies the response.
 *
 * @example
 * app.use(noSniff());
 */
export function noSniff(): MiddlewareHandler {
  return async (c, next) => {
    c.header(HEADER, 'nosniff');
    await next();
    if (c.res.headers.get(HEADER) !== 'nosniff') c.header(HEADER, 'nosniff');
  };
}
