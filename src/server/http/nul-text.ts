import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './error-response';

// PostgreSQL (and so PGlite) stores no NUL (U+0000) in `text` nor in `jsonb`: an id, a key or a prompt holding one
// failed its statement, and the route answered 500 (issue 32, an outside scan: a confirmation id, a task prompt, a
// push API product id, a user id for erasure). A client's NUL is refused at the edge instead, with a 400 naming where
// it was, before any handler reads the database: here for the URL (every path parameter and query value of every
// route), and by `nulPathOf` in each JSON body reader. Text from outside the request (an integrator's answer, a
// model's reply, a feed) is not the client's to fix: storable.ts removes NUL from it when it is stored.

/** What a 400 says after the place: the same words for the URL and for a body field. */
export const NUL_REFUSED = 'must not contain the NUL character (U+0000)';

/**
 * Where the first NUL of a parsed JSON body is: `''` for the body itself, `text`, `userData.name`, `products.2.url`
 * (keys too); undefined when there is none.
 *
 * @example
 * nulPathOf({ product: { identifier: 'p\u00001' } }); // 'product.identifier'
 */
export function nulPathOf(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPathOf(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * `nulPathOf` for a body parsed from `text`: a NUL can only come in as the escape `\u0000` (JSON allows no raw control
 * character), so a body without those six characters (nearly all) is not walked.
 */
export const nulPathOfJson = (text: string, parsed: unknown): string | undefined =>
  text.includes('\\u0000') ? nulPathOf(parsed) : undefined;

/** A client's JSON body: its value, or why it is refused (not JSON, or a NUL at `nulAt`). */
export type ClientJson = { ok: true; value: unknown } | { ok: false; nulAt?: string };

/**
 * Parses a request body as every JSON reader of the service does: not JSON, or JSON with a NUL (`nulAt` says where),
 * is refused; each API answers in its own error shape.
 *
 * @example
 * parseClientJson('{"text":"a\\u0000"}'); // → { ok: false, nulAt: 'text' }
 */
export function parseClientJson(text: string): ClientJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const nulAt = nulPathOfJson(text, value);
  return nulAt === undefined ? { ok: true, value } : { ok: false, nulAt };
}

/** The message of a 400 for a body whose field at `path` holds a NUL. */
export const nulInBody = (path: string): string => `${path || 'The body'}: ${NUL_REFUSED}.`;

/**
 * `400 invalid_request` for a URL with a NUL (`%00`) in its path or query, before any route: every `%` of a URL on
 * the wire starts an escape, so `%00` there is always the character (a literal "%00" is sent as `%2500`).
 *
 * @example
 * app.use(refuseNulInUrl());
 */
export function refuseNulInUrl(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.url.includes('%00'))
      return errorResponse(c, 400, 'invalid_request', `The URL ${NUL_REFUSED}, written %00.`);
    await next();
  };
}
