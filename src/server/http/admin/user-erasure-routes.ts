import { Hono } from 'hono';
import type { WidgetSettings } from '../../config/service-config';
import type { ChatStore } from '../../conversations/chat-store';
import { errorResponse } from '../error-response';

export interface UserErasureDeps {
  chat: Pick<ChatStore, 'deleteUserConversations'>;
  findWidget(id: string): WidgetSettings | undefined;
}

/**
 * `DELETE /v0/admin/widgets/{widgetId}/users/{sub}` (DESIGN "Other bad input", issue 18 item 8): erases at once every
 * conversation of one verified customer (the `sub` of their identity tokens), with its messages, events, engine state
 * and webhook records. Answers `200 { deleted: n }`, 0 included: a right-to-erasure request is then recorded with
 * what it removed, and repeating it is harmless. Behind the admin key (mounted inside `adminRoutes`).
 *
 * @example
 * curl -X DELETE -H "authorization: Bearer $ADMIN_KEY" \
 *   https://chat.shop.example/v0/admin/widgets/shop/users/auth0%7C42   # → { "deleted": 3 }
 */
export function userErasureRoutes({ chat, findWidget }: UserErasureDeps): Hono {
  const app = new Hono();
  app.delete('/widgets/:widgetId/users/:sub', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const deleted = await chat.deleteUserConversations(widget.id, c.req.param('sub'));
    return c.json({ deleted });
  });
  return app;
}
