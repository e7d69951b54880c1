import { Hono } from 'hono';
import type { WidgetSettings } from '../../config/service-config';
import { errorResponse } from '../error-response';

export interface ConversationErasureDeps {
  findWidget(id: string): WidgetSettings | undefined;
  /** Deletes the conversation with everything it holds; false when this widget has no such conversation. */
  erase(widgetId: string, conversationId: string): Promise<boolean>;
}

/**
 * `DELETE /v0/admin/widgets/{widgetId}/conversations/{conversationId}` (DESIGN "Other bad input"): erases one
 * conversation at once, messages, events and everything else it holds, whatever its age. `204`; `404` for an unknown
 * widget, and the same `404 not_found` for an unknown conversation and another widget's. Behind the admin key (the
 * caller mounts it inside `adminRoutes`).
 */
export function conversationErasureRoutes({ findWidget, erase }: ConversationErasureDeps): Hono {
  const app = new Hono();
  app.delete('/widgets/:widgetId/conversations/:conversationId', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const erased = await erase(widget.id, c.req.param('conversationId'));
    if (!erased) return errorResponse(c, 404, 'not_found', 'No such conversation.');
    return c.body(null, 204);
  });
  return app;
}
