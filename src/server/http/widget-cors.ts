import type { MiddlewareHandler } from 'hono';
import { ORIGIN_NOT_ALLOWED, REPLY_ID_HEADER } from '../../protocol/chat';
import type { WidgetSettings } from '../config/service-config';
import { errorResponse } from './error-response';

/**
 * CORS for the widget API, limited to the widget's `allowedOrigins`. A browser request from any other origin is
 * refused with 403 before it reaches a handler, so a foreign page cannot even drive a conversation blind.
 * Requests without `Origin` (server-to-server, curl) pass: CORS protects browsers' users, not the endpoint.
 *
 * Issue 36: the refusal itself is readable by the refused page (its origin in `access-control-allow-origin`), and a
 * preflight from that page is answered as any other, so the widget reads `origin_not_allowed` on its config and on a
 * message instead of a bare network error: it tells the page's developer which setting to change, once, and does not
 * retry what can only be refused again. Nothing more is exposed: the 403's body, and no handler runs.
 */
export function widgetCors(findWidget: (id: string) => WidgetSettings | undefined): MiddlewareHandler {
  return async (c, next) => {
    const widget = findWidget(c.req.param('widgetId') ?? '');
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const allowed = widget.allowedOrigins.includes('*') || widget.allowedOrigins.includes(origin);
      c.header('access-control-allow-origin', origin);
      c.header('vary', 'Origin');
      if (c.req.method === 'OPTIONS') {
        c.header('access-control-allow-methods', 'GET, POST, PUT, OPTIONS');
        c.header(
          'access-control-allow-headers',
          c.req.header('access-control-request-headers') ?? 'content-type',
        );
        c.header('access-control-max-age', '600');
        return c.body(null, 204);
      }
      if (!allowed)
        return errorResponse(
          c,
          403,
          ORIGIN_NOT_ALLOWED,
          `this page's origin ${origin} is not in the widget's allowedOrigins: add it to the widget's config`,
        );
      // The widget reads the reply's id from the answer to a message, and how long to wait from a 429 (cross-origin:
      // only exposed headers are readable).
      c.header(
        'access-control-expose-headers',
        `content-type, retry-after, x-service-message-id, ${REPLY_ID_HEADER}`,
      );
    }
    await next();
  };
}
