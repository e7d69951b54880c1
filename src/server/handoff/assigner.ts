import type { Db } from '../platform/database/db';
import type { Logger } from '../platform/logger';
import { PRESENCE_TTL_SECONDS } from './agent-presence';

// Round robin (issue 34, DESIGN "The support team's day"): a widget with `assignment: "round_robin"` gives each waiting
// conversation to the online agent holding the fewest, up to the widget's `maxOpenPerAgent`, by setting its
// `assignee`; a tie goes to the agent assigned least recently. "Holding" counts the waiting conversations assigned to
// the agent and the ones they have taken, on every widget: an agent's load is theirs, whichever store it comes from.
// The conversation stays `waiting` until the assignee takes it (anyone else may still take it). An assignee who goes
// away, closes the console or is not heard from for the presence's time to live loses their waiting conversations
// back to the queue, where the same pass gives them to another online agent if there is one.
//
// A pass runs when something changed on this instance (a conversation started waiting, an agent came online, went
// away or let one go: `kick`), and every `intervalMs` on every instance while any widget assigns (for what no request
// announces: a console that went silent, a change on another instance). Passes are one transaction under an advisory
// lock, so two instances never give one agent more than the widget allows. Only agents are assigned conversations:
// the admin key is the merchant's, at the console to set things up as often as to answer.

/** What a pass reads of each widget (its settings, read at every pass: a saved change applies at the next). */
export interface AssignmentSettings {
  id: string;
  assignment: 'manual' | 'round_robin';
  maxOpenPerAgent: number;
}

export interface Assigner {
  /** One pass now; the conversations whose assignee it changed. */
  pass(): Promise<string[]>;
  /** Something changed that a pass would act on: one runs at once (coalesced with any already due). */
  kick(): void;
  /** Stops the timer, and waits for a pass under way. */
  stop(): Promise<void>;
}

/** Distinguishes this advisory lock from the others (limits 46_113, the task API 46_112, the migration lock). */
const ASSIGN_LOCK = 46_114;
/** DESIGN: within 5 s of an agent going silent; the presence's time to live has passed by then. */
export const ASSIGN_INTERVAL_MS = 2000;
/** A pass gives at most this many per widget (the rest at the next, two seconds later). */
const PER_PASS = 200;

/**
 * @example
 * const assigner = createAssigner(db, () => registry.widgets, { logger });
 * await handoff.request(widgetId, conversationId, {}); assigner.kick();
 */
export function createAssigner(
  db: Db,
  widgets: () => Iterable<AssignmentSettings>,
  {
    logger,
    intervalMs = ASSIGN_INTERVAL_MS,
    ttlSeconds = PRESENCE_TTL_SECONDS,
    onChanged,
  }: {
    logger?: Pick<Logger, 'error'>;
    intervalMs?: number;
    ttlSeconds?: number;
    /** The conversations whose assignee changed (their consoles see it at their next read). */
    onChanged?(conversationIds: string[]): void;
  } = {},
): Assigner {
  const online = (alias: string) =>
    `${alias}.status = 'online' AND ${alias}.seen_at > now() - make_interval(secs => ${Number(ttlSeconds)})`;
  // Assigned or held by the agent `p`, on any widget (two partial indexes, migration 032).
  const holding = `(SELECT count(*) FROM conversations h WHERE h.mode = 'waiting' AND h.assignee = p.agent_id)
    + (SELECT count(*) FROM conversations h WHERE h.mode = 'agent' AND h.agent_id = p.agent_id)`;
  /** Whether the last pass left any conversation assigned: a widget switched to manual still has some to clear. */
  let hadAssigned = true;

  const pass = async (): Promise<string[]> => {
    const roundRobin = [...widgets()].filter((w) => w.assignment === 'round_robin');
    if (roundRobin.length === 0 && !hadAssigned) return [];
    const changed = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ASSIGN_LOCK]);
      const ids: string[] = [];
      // Back to the queue: the assignee is not online any more, or the widget no longer assigns.
      const freed = await tx.query<{ id: string }>(
        `UPDATE conversations c SET assignee = NULL, assignee_name = NULL
         WHERE c.mode = 'waiting' AND c.assignee IS NOT NULL
           AND (c.widget_id <> ALL($1::text[])
             OR NOT EXISTS (SELECT 1 FROM agent_presence p WHERE p.agent_id = c.assignee AND p.role = 'agent'
                              AND ${online('p')}))
         RETURNING c.id`,
        [roundRobin.map((w) => w.id)],
      );
      ids.push(...freed.map((r) => r.id));
      for (const widget of roundRobin) {
        for (let i = 0; i < PER_PASS; i++) {
          // The oldest unassigned waiting conversation, to the least loaded online agent below the widget's maximum
          // (then the one assigned least recently: clock_timestamp, since every step shares the transaction's now()).
          const [row] = await tx.query<{ id: string }>(
            `WITH next AS (
               SELECT c.id FROM conversations c
               WHERE c.widget_id = $1 AND c.mode = 'waiting' AND c.assignee IS NULL
               ORDER BY c.waiting_since, c.id LIMIT 1
             ), pick AS (
               SELECT p.agent_id, p.name FROM agent_presence p CROSS JOIN LATERAL (SELECT ${holding} AS n) load
               WHERE p.role = 'agent' AND ${online('p')} AND load.n < $2
               ORDER BY load.n, p.last_assigned_at NULLS FIRST, p.agent_id LIMIT 1
             ), assigned AS (
               UPDATE conversations c SET assignee = pick.agent_id, assignee_name = pick.name
               FROM next, pick WHERE c.id = next.id AND c.mode = 'waiting' AND c.assignee IS NULL
               RETURNING c.id, pick.agent_id
             ), stamped AS (
               UPDATE agent_presence p SET last_assigned_at = clock_timestamp()
               FROM assigned WHERE p.agent_id = assigned.agent_id
             )
             SELECT id FROM assigned`,
            [widget.id, widget.maxOpenPerAgent],
          );
          if (!row) break;
          ids.push(row.id);
        }
      }
      const [left] = await tx.query<{ any: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM conversations WHERE mode = 'waiting' AND assignee IS NOT NULL) AS any`,
      );
      hadAssigned = left?.any === true;
      return ids;
    });
    if (changed.length > 0) onChanged?.(changed);
    return changed;
  };

  let running: Promise<unknown> | null = null;
  let again = false;
  const run = () => {
    if (running) {
      // A change during a pass may not be in it: one more after it.
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => logger?.error('assignment pass failed', { error: String(error) }))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();

  return {
    pass,
    kick: run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
