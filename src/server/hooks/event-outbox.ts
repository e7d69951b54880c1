import { randomUUID } from 'node:crypto';
import type {
  EventDelivery,
  EventDeliveryStatus,
  ServiceEvent,
  ServiceEventType,
} from '../../protocol/event-hooks';
import type { WidgetSettings } from '../config/service-config';
import type { Db } from '../platform/database/db';
import { isUuid } from '../platform/database/uuid';

// Issue 33: the events for the merchant's systems, stored before they are sent (migration 029's `event_deliveries`):
// one row per event and hook, its body fixed when the event happened. Every instance's worker (event-worker.ts) claims
// due rows with SKIP LOCKED, so each attempt is made once however many instances run; a claim moves the row's next
// attempt on by its back-off, so an instance that dies mid-call leaves it to be tried again then. Each row has its own
// schedule: one event's retries never hold back another's.

/** A claimed delivery, to be sent now. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  widgetId: string;
  type: ServiceEventType;
  url: string;
  secretEnv: string;
  body: string;
  /** Including this one. */
  attempts: number;
  createdAt: Date;
}

export interface EventOutbox {
  /** Stores `type` for every hook of `widget` that wants it; the event's id, or null when none does. */
  emit(
    widget: Pick<WidgetSettings, 'id' | 'eventHooks'>,
    type: ServiceEventType,
    conversationId: string,
    data: Record<string, unknown>,
  ): Promise<string | null>;
  claimDue(limit: number, retryInSeconds: (attempts: number) => number): Promise<ClaimedDelivery[]>;
  delivered(delivery: ClaimedDelivery, status: number): Promise<void>;
  /** Not delivered this time: tried again when its claim ends, or given up (`failed`) when `giveUp`. */
  attemptFailed(
    delivery: ClaimedDelivery,
    status: number | null,
    error: string,
    giveUp: boolean,
  ): Promise<void>;
  list(
    widgetId: string,
    options?: { status?: EventDeliveryStatus; limit?: number; conversationId?: string },
  ): Promise<EventDelivery[]>;
  /** "Send again": due now, whatever it was. False for another widget's or an unknown id. */
  sendAgain(widgetId: string, id: string): Promise<boolean>;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  type: ServiceEventType;
  conversation_id: string;
  url: string;
  status: EventDeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  next_attempt_at: Date;
  delivered_at: Date | null;
}

const COLUMNS =
  'id, event_id, type, conversation_id, url, status, attempts, last_status, last_error, created_at, next_attempt_at, delivered_at';

const toDelivery = (r: DeliveryRow): EventDelivery => ({
  id: r.id,
  eventId: r.event_id,
  type: r.type,
  conversationId: r.conversation_id,
  url: r.url,
  status: r.status,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: new Date(r.created_at).toISOString(),
  nextAttemptAt: r.status === 'pending' ? new Date(r.next_attempt_at).toISOString() : null,
  deliveredAt: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
});

export function createEventOutbox(db: Db): EventOutbox {
  return {
    async emit(widget, type, conversationId, data) {
      const hooks = (widget.eventHooks ?? []).filter((h) => h.types.includes(type));
      if (hooks.length === 0) return null;
      const id = randomUUID();
      const event: ServiceEvent = {
        id,
        type,
        widgetId: widget.id,
        conversationId,
        createdAt: new Date().toISOString(),
        data,
      };
      const body = JSON.stringify(event);
      await db.query(
        `INSERT INTO event_deliveries (event_id, widget_id, conversation_id, type, url, secret_env, body)
         SELECT $1, $2, $3, $4, h.url, h.secret_env, $5
         FROM unnest($6::text[], $7::text[]) AS h(url, secret_env)
         WHERE EXISTS (SELECT 1 FROM conversations WHERE id = $3)`,
        [id, widget.id, conversationId, type, body, hooks.map((h) => h.url), hooks.map((h) => h.secretEnv)],
      );
      return id;
    },

    async claimDue(limit, retryInSeconds) {
      const waits = Array.from({ length: 40 }, (_, i) => retryInSeconds(i + 1));
      const rows = await db.query<{
        id: string;
        event_id: string;
        widget_id: string;
        type: ServiceEventType;
        url: string;
        secret_env: string;
        body: string;
        attempts: number;
        created_at: Date;
      }>(
        `UPDATE event_deliveries d
         SET attempts = d.attempts + 1,
             next_attempt_at = now() + make_interval(secs => ($2::int[])[least(d.attempts + 1, 40)])
         WHERE d.id IN (
           SELECT id FROM event_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         RETURNING d.id, d.event_id, d.widget_id, d.type, d.url, d.secret_env, d.body, d.attempts, d.created_at`,
        [limit, waits],
      );
      return rows.map((r) => ({
        id: r.id,
        eventId: r.event_id,
        widgetId: r.widget_id,
        type: r.type,
        url: r.url,
        secretEnv: r.secret_env,
        body: r.body,
        attempts: r.attempts,
        createdAt: new Date(r.created_at),
      }));
    },

    async delivered(delivery, status) {
      await db.query(
        `UPDATE event_deliveries SET status = 'delivered', delivered_at = now(), last_status = $2, last_error = NULL
         WHERE id = $1`,
        [delivery.id, status],
      );
    },

    async attemptFailed(delivery, status, error, giveUp) {
      await db.query(
        `UPDATE event_deliveries SET last_status = $2, last_error = $3,
           status = CASE WHEN $4 THEN 'failed' ELSE status END
         WHERE id = $1`,
        [delivery.id, status, error.slice(0, 500), giveUp],
      );
    },

    async list(widgetId, { status, limit = 50, conversationId } = {}) {
      const rows = await db.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM event_deliveries
         WHERE widget_id = $1 AND ($2::text IS NULL OR status = $2) AND ($4::uuid IS NULL OR conversation_id = $4)
         ORDER BY seq DESC LIMIT $3`,
        [widgetId, status ?? null, Math.max(1, Math.min(limit, 200)), conversationId ?? null],
      );
      return rows.map(toDelivery);
    },

    async sendAgain(widgetId, id) {
      if (!isUuid(id)) return false;
      const rows = await db.query(
        `UPDATE event_deliveries SET status = 'pending', next_attempt_at = now()
         WHERE id = $1 AND widget_id = $2 RETURNING id`,
        [id, widgetId],
      );
      return rows.length > 0;
    },
  };
}
