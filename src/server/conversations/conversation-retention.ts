import type { Db } from '../platform/database/db';
import { isUuid } from '../platform/database/uuid';
import type { Logger } from '../platform/logger';

// Retention and erasure (DESIGN "Other bad input"): a conversation goes with everything it holds. Every table that
// hangs off `conversations` references it `ON DELETE CASCADE` (messages, engine_state, webhook_calls, and what later
// migrations add), or is emptied by a trigger of the delete (the event log and the turns' leases, migration 037), so
// deleting the conversation's row is the whole erasure, in one statement.

/** Conversations deleted per statement by the sweep: short transactions, each cascade bounded. */
export const SWEEP_BATCH = 500;

/**
 * Deletes one conversation of a widget, at once, with everything it holds. False when there is no such conversation
 * of this widget (unknown id, malformed id, or another widget's).
 *
 * @example
 * if (!(await deleteConversation(db, 'shop', conversationId))) return notFound(c);
 */
export async function deleteConversation(db: Db, widgetId: string, conversationId: string): Promise<boolean> {
  if (!isUuid(conversationId)) return false;
  const rows = await db.query<{ id: string }>(
    'DELETE FROM conversations WHERE id = $1 AND widget_id = $2 RETURNING id',
    [conversationId, widgetId],
  );
  return rows.length > 0;
}

/**
 * Deletes a widget's conversations whose last activity (`updated_at`, moved by every message, and by each reply as it begins) is older
 * than `retentionDays`, in batches of `SWEEP_BATCH`, and answers how many went. The index the agents' inbox reads
 * (`conversations_inbox`: widget_id, updated_at) finds them without a scan of the table. Rows another instance's
 * sweep holds are skipped, not waited for.
 */
export async function deleteIdleConversations(
  db: Db,
  widgetId: string,
  retentionDays: number,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db.query<{ id: string }>(
      `DELETE FROM conversations WHERE id IN (
         SELECT id FROM conversations
         WHERE widget_id = $1 AND updated_at < now() - $2::int * interval '1 day'
         LIMIT $3
         FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
      [widgetId, retentionDays, SWEEP_BATCH],
    );
    deleted += rows.length;
    if (rows.length < SWEEP_BATCH) return deleted;
  }
}

export interface RetentionSweep {
  /** Sweeps every widget now (a sweep already running is joined); answers how many conversations went. */
  sweepNow(): Promise<number>;
  stop(): Promise<void>;
}

/** Once an hour: idle time is counted in days, and a sweep that finds nothing costs one index probe per widget. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs the retention sweep in the service: once at start (in the background, so the start is not delayed) and then
 * every `intervalMs`, for each widget with its own `retentionDays`.
 */
export function scheduleRetentionSweep(
  db: Db,
  /** Read again at each sweep (issue 22: the settings registry). */
  widgets: Iterable<{ id: string; retentionDays: number }>,
  logger: Logger,
  intervalMs = SWEEP_INTERVAL_MS,
): RetentionSweep {
  let running: Promise<number> | undefined;
  const sweep = async (): Promise<number> => {
    let total = 0;
    for (const widget of widgets) {
      const deleted = await deleteIdleConversations(db, widget.id, widget.retentionDays);
      if (deleted > 0) {
        logger.info('retention: idle conversations deleted', {
          widgetId: widget.id,
          retentionDays: widget.retentionDays,
          deleted,
        });
      }
      total += deleted;
    }
    return total;
  };
  const sweepNow = () => {
    running ??= sweep().finally(() => {
      running = undefined;
    });
    return running;
  };
  const runLogged = () =>
    void sweepNow().catch((e: unknown) => logger.error('retention sweep failed', { error: String(e) }));
  runLogged();
  const timer = setInterval(runLogged, intervalMs);
  timer.unref();
  return {
    sweepNow,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
