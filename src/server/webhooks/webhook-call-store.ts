import type { InboxWebhookCall } from '../../protocol/inbox';
import type { Db } from '../platform/database/db';
import { isUuid } from '../platform/database/uuid';

// The record of webhook calls that the agents' inbox shows beside the transcript (migration 006). Texts are capped
// here, so an integrator answering a megabyte of reason cannot fill the database through the inbox record.

const TEXT_MAX = 1000;

export interface WebhookCallRecord {
  conversationId: string;
  /** The call's `x-service-request-id` (migration 017); older records have none. */
  requestId?: string;
  kind: InboxWebhookCall['kind'];
  version: string;
  orderId: string;
  reason?: string;
  outcome: InboxWebhookCall['outcome'];
  answer?: string;
  httpStatus?: number;
  error?: { code: string; message: string };
  durationMs: number;
}

export interface WebhookCallStore {
  record(call: WebhookCallRecord): Promise<void>;
  /** The conversation's calls, oldest first; empty for a conversation of another widget. */
  list(widgetId: string, conversationId: string): Promise<InboxWebhookCall[]>;
}

interface Row {
  id: string;
  request_id: string | null;
  created_at: Date;
  kind: InboxWebhookCall['kind'];
  version: string;
  order_id: string;
  reason: string | null;
  outcome: InboxWebhookCall['outcome'];
  answer: string | null;
  http_status: number | null;
  error_code: string | null;
  error_message: string | null;
}

const cap = (text: string | undefined): string | null =>
  text === undefined ? null : [...text].slice(0, TEXT_MAX).join('');

/**
 * @example
 * const calls = createWebhookCallStore(db);
 * await calls.record({ conversationId, kind: 'order-cancellation', version: '2024-09-10', orderId: '1004',
 *   outcome: 'refused', answer: 'Order 1004 has shipped.', httpStatus: 200, durationMs: 84 });
 * await calls.list('demo', conversationId); // → [{ outcome: 'refused', answer: 'Order 1004 has shipped.', … }]
 */
export function createWebhookCallStore(db: Db): WebhookCallStore {
  return {
    async record(call) {
      await db.query(
        `INSERT INTO webhook_calls (conversation_id, kind, version, order_id, reason, outcome, answer, http_status,
           error_code, error_message, duration_ms, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          call.conversationId,
          call.kind,
          call.version,
          cap(call.orderId),
          cap(call.reason),
          call.outcome,
          cap(call.answer),
          call.httpStatus ?? null,
          call.error ? cap(call.error.code) : null,
          call.error ? cap(call.error.message) : null,
          Math.max(0, Math.round(call.durationMs)),
          call.requestId ?? null,
        ],
      );
    },
    async list(widgetId, conversationId) {
      if (!isUuid(conversationId)) return [];
      const rows = await db.query<Row>(
        `SELECT w.id, w.created_at, w.kind, w.version, w.order_id, w.reason, w.outcome, w.answer, w.http_status,
                w.error_code, w.error_message, w.request_id
           FROM webhook_calls w JOIN conversations c ON c.id = w.conversation_id
          WHERE c.widget_id = $1 AND w.conversation_id = $2
          ORDER BY w.seq`,
        [widgetId, conversationId],
      );
      return rows.map((r) => ({
        id: r.id,
        at: r.created_at.toISOString(),
        kind: r.kind,
        version: r.version,
        orderId: r.order_id,
        reason: r.reason,
        outcome: r.outcome,
        answer: r.answer,
        httpStatus: r.http_status,
        error: r.error_code === null ? null : { code: r.error_code, message: r.error_message ?? '' },
        requestId: r.request_id,
      }));
    },
  };
}
