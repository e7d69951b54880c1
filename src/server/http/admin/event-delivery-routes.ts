import { Hono } from 'hono';
import type { EventDeliveriesResponse, EventDeliveryStatus } from '../../../protocol/event-hooks';
import type { WidgetSettings } from '../../config/service-config';
import type { EventOutbox } from '../../hooks/event-outbox';
import { isUuid } from '../../platform/database/uuid';
import { errorResponse } from '../error-response';
import type { AdminVariables } from './admin-auth';

// Issue 33: each delivery of an event to the merchant's systems, for the console (admins only, behind `requireAdmin`):
// `GET /widgets/{id}/event-deliveries?status=&conversationId=&limit=` (newest first) and
// `POST /widgets/{id}/event-deliveries/{deliveryId}/send-again` (due now, whatever it was; `204`).

export interface EventDeliveryDeps {
  outbox: Pick<EventOutbox, 'list' | 'sendAgain'>;
  /** Looks now (a delivery was made due). */
  wake(): void;
  findWidget(id: string): WidgetSettings | undefined;
}

const STATUSES: readonly EventDeliveryStatus[] = ['pending', 'delivered', 'failed'];

export function eventDeliveryRoutes({
  outbox,
  wake,
  findWidget,
}: EventDeliveryDeps): Hono<{ Variables: AdminVariables }> {
  const app = new Hono<{ Variables: AdminVariables }>();

  app.get('/widgets/:widgetId/event-deliveries', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const status = c.req.query('status');
    if (status !== undefined && !STATUSES.includes(status as EventDeliveryStatus))
      return errorResponse(c, 400, 'invalid_request', `status must be one of ${STATUSES.join(', ')}.`);
    const conversationId = c.req.query('conversationId');
    if (conversationId !== undefined && !isUuid(conversationId))
      return errorResponse(c, 400, 'invalid_request', 'conversationId must be a conversation id.');
    const rawLimit = c.req.query('limit');
    const limit = rawLimit === undefined ? 50 : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      return errorResponse(c, 400, 'invalid_request', 'limit must be a whole number from 1 to 200.');
    const deliveries = await outbox.list(widget.id, {
      status: status as EventDeliveryStatus | undefined,
      conversationId,
      limit,
    });
    c.header('cache-control', 'no-store');
    return c.json<EventDeliveriesResponse>({ deliveries });
  });

  app.post('/widgets/:widgetId/event-deliveries/:id/send-again', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    if (!(await outbox.sendAgain(widget.id, c.req.param('id'))))
      return errorResponse(c, 404, 'not_found', 'No such event delivery for this widget.');
    wake();
    return c.body(null, 204);
  });

  return app;
}
