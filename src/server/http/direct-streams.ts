import { ServerResponse } from 'node:http';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';

/**
 * Issue 32 item 4: an open event stream costs only its socket while idle. Through Hono's `streamSSE` every stream
 * holds a web `TransformStream`, its reader in `@hono/node-server` and their queues, and a few web-stream promises per
 * event written: the turn-cost bench's 1,000 idle streams held 35.5 KiB of heap each that way, 14.2 KiB written to the
 * socket (docs/performance.md). So a route that streams asks for the socket (`directStream`), answers with an empty response that
 * carries its headers, and writes its events to the socket itself once every middleware has seen that response
 * (CORS, `nosniff`, the request id, the access line): `withDirectStreams` around the app's `fetch` sends the final
 * headers, then lets the route write.
 *
 * Only where the app is served by `start.ts` (the wrapper is there); under `app.request()` or a plain `serve()` a route
 * gets undefined and streams through Hono as before.
 */
const HANDOVER = Symbol('direct-streams');
/**
 * On the route's response until the wrapper sends it. Hono copies a response's headers into one that replaces it (and
 * copies the response itself when a header is set after the route), so the mark alone does not say the route's
 * response survived: it did when the final one still has the mark, no body and its 200.
 */
const MARK = 'x-service-direct-stream';

interface Handover {
  outgoing: ServerResponse;
  settle?: (written: boolean) => void;
  /** The response `directStream` made: the one the wrapper gets back when nothing replaced it. */
  response?: Response;
}

export interface DirectStream {
  /** The empty response to return from the route: its headers are what the wrapper sends. */
  readonly response: Response;
  /**
   * True once the headers are on the wire and the body is the route's to write; false when it is not to be written (a
   * `HEAD`, or a middleware answered something else): the route then ends what it started, writing nothing.
   */
  readonly ready: Promise<boolean>;
  readonly outgoing: ServerResponse;
}

/**
 * For a route that writes a long-lived body itself: the socket, when the app runs behind `withDirectStreams`. Headers
 * set on `c` before the call travel with the response. Undefined otherwise (tests through `app.request()`).
 */
export function directStream(c: Context): DirectStream | undefined {
  const handover = (c.env as Record<symbol, Handover | undefined> | undefined)?.[HANDOVER];
  if (!handover || handover.settle) return undefined;
  const ready = new Promise<boolean>((settle) => {
    handover.settle = settle;
  });
  c.header(MARK, '1');
  handover.response = c.body(null, 200);
  return { response: handover.response, ready, outgoing: handover.outgoing };
}

type NodeFetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/**
 * Wraps an app's `fetch` for `@hono/node-server`: a response that a route marked with `directStream` has its headers
 * written here, after every middleware, and the route then writes its body to the socket.
 *
 * @example
 * serve({ fetch: withDirectStreams(app.fetch), port });
 */
export function withDirectStreams(fetch: NodeFetch): NodeFetch {
  return async (request, env) => {
    // HTTP/1.1 only: an HTTP/2 stream streams through Hono as before.
    if (!(env.outgoing instanceof ServerResponse)) return fetch(request, env);
    const handover: Handover = { outgoing: env.outgoing };
    const bindings: HttpBindings & { [HANDOVER]: Handover } = {
      incoming: env.incoming as HttpBindings['incoming'],
      outgoing: env.outgoing,
      [HANDOVER]: handover,
    };
    const response = await fetch(request, bindings);
    const { settle } = handover;
    if (!settle) return response;
    // The route's own response, unreplaced, needs no look at its body: reading `body` makes @hono/node-server's
    // light response build a whole web Response (1 % of a turn's CPU in the service, issue 32).
    const theRoutes =
      response === handover.response ||
      (response.headers.get(MARK) === '1' && response.body === null && response.status === 200);
    if (!theRoutes || request.method === 'HEAD' || handover.outgoing.destroyed) {
      settle(false);
      return withoutMark(response);
    }
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== MARK && name !== 'set-cookie') headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    try {
      handover.outgoing.writeHead(response.status, headers);
      handover.outgoing.flushHeaders();
    } catch {
      // The client left between the route and here: the route's stream ends unwritten.
      settle(false);
      return RESPONSE_ALREADY_SENT;
    }
    settle(true);
    return RESPONSE_ALREADY_SENT;
  };
}

/** The response as a client gets it when the route's stream is not written: headers only, without the mark. */
function withoutMark(response: Response): Response {
  if (!response.headers.has(MARK)) return response;
  const headers = new Headers(response.headers);
  headers.delete(MARK);
  return new Response(response.body, { status: response.status, headers });
}
