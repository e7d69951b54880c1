import type { Logger } from '../logger';
import type { Db } from './db';

// Issue 32: the planner's statistics, and on the embedded database its dead rows.
//
// A statement is planned from the statistics ANALYZE gathers. A table never analyzed is planned as a guess from its
// size, and on the service's tables the guess picks the wrong index: a conversation looked up by id and widget was read
// through `conversations_started` (widget, created) with the id as a filter, every conversation of the widget per
// message, where the primary key reads one row; a reply's foreign-key check walked every message of its conversation.
// A prepared statement keeps the plan it made first until an ANALYZE of its tables replaces it, so the cost grows with
// the table and stays.
//
// - PostgreSQL's autovacuum analyzes a table once enough of it changed, but it looks once a minute per database, and a
//   new database runs its first minute, and a first burst of conversations, on those guesses. The service analyzes a
//   table that has never been analyzed as soon as 50 rows changed (autovacuum's own base threshold); the rest stays
//   autovacuum's. Under `pg_try_advisory_xact_lock` (instances do not all analyze the same table) and a short
//   `lock_timeout`: a wait for a lock autovacuum holds would make PostgreSQL cancel autovacuum's work.
// - The embedded database (PGlite: one process, no background workers) has no autovacuum at all: without this, it is
//   never analyzed and never vacuumed, so plans stay those of an empty table and dead rows stay in its pages and
//   indexes. The service applies autovacuum's default rules itself: ANALYZE once 50 rows + 10 % of the table changed
//   since the last, VACUUM once 50 + 20 % are dead. Both run in the service's process, which waits for them: they are
//   as rare as autovacuum's (a table of a million messages is analyzed after 100,000 changes).

/** How often the tables' counters are looked at: a read of the statistics views, about a tenth of a millisecond. */
export const UPKEEP_INTERVAL_MS = 10_000;

/** Autovacuum's defaults (`autovacuum_analyze_threshold`, `…_scale_factor`, and the vacuum ones). */
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SHARE = 0.2;
/** Distinguishes these advisory locks from the others (limits.ts, turn-leases.ts, the task API). */
const LOCK_SPACE = 46_115;

export interface TableUpkeep {
  /** Looks once: analyzes (and on the embedded database vacuums) the tables that are due. Answers their names. */
  check(): Promise<string[]>;
  /** No more looks; resolves once a look under way has ended. */
  stop(): Promise<void>;
}

interface DueRow {
  table: string;
  analyze: boolean;
  vacuum: boolean;
}

/**
 * Keeps the service's tables analyzed (and on the embedded database vacuumed), checking every `intervalMs`.
 * @example
 * const upkeep = keepTablesUp(db, { embedded: true, logger });
 * // …
 * await upkeep.stop();
 */
export function keepTablesUp(
  db: Db,
  {
    embedded,
    logger,
    intervalMs = UPKEEP_INTERVAL_MS,
  }: { embedded: boolean; logger: Logger; intervalMs?: number | null },
): TableUpkeep {
  let running: Promise<string[]> | undefined;
  const due = () =>
    db.query<DueRow>(
      `SELECT s.relname AS table,
              s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0) AND ($5 OR s.last_analyze IS NULL AND s.last_autoanalyze IS NULL) AS analyze,
              $5 AND s.n_dead_tup > $3 + $4 * greatest(c.reltuples, 0) AS vacuum
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = current_schema()
          AND (s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0) AND ($5 OR s.last_analyze IS NULL AND s.last_autoanalyze IS NULL)
               OR $5 AND s.n_dead_tup > $3 + $4 * greatest(c.reltuples, 0))
        ORDER BY s.relname`,
      [ANALYZE_BASE, ANALYZE_SHARE, VACUUM_BASE, VACUUM_SHARE, embedded],
    );
  /**
   * PostgreSQL: the tables this instance analyzed or tried to (the rule there is "never analyzed"). A role that does not
   * own a table gets a warning, not an error, and its statistics stay empty: without this it would try every look.
   */
  const tried = new Set<string>();
  const upkeep = async (row: DueRow): Promise<'analyzed' | 'vacuumed' | null> => {
    // A name from the catalog, quoted as an identifier: never input.
    const table = `"${row.table.replaceAll('"', '""')}"`;
    if (embedded) {
      // One process: nobody else analyzes. VACUUM cannot run inside a transaction.
      await db.exec(row.vacuum ? `VACUUM (ANALYZE) ${table}` : `ANALYZE ${table}`);
      return row.vacuum ? 'vacuumed' : 'analyzed';
    }
    if (tried.has(row.table)) return null;
    tried.add(row.table);
    return db.transaction(async (tx) => {
      const [lock] = await tx.query<{ held: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS held',
        [LOCK_SPACE, row.table],
      );
      if (!lock?.held) return null;
      await tx.query(`SET LOCAL lock_timeout = '200ms'`);
      await tx.query(`ANALYZE ${table}`);
      return 'analyzed';
    });
  };
  const look = async (): Promise<string[]> => {
    const started = performance.now();
    const done: string[] = [];
    const vacuumed: string[] = [];
    for (const row of await due()) {
      try {
        const what = await upkeep(row);
        if (what) done.push(row.table);
        if (what === 'vacuumed') vacuumed.push(row.table);
      } catch (error) {
        // One table's failure (autovacuum holding its lock past the timeout: 55P03) leaves the others to this look.
        logger.warn('table upkeep failed', { table: row.table, error: String(error) });
      }
    }
    if (done.length > 0)
      logger.debug('tables analyzed', {
        tables: done,
        vacuumed,
        ms: Math.round(performance.now() - started),
      });
    return done;
  };
  const check = () => {
    // One look at a time: a slow ANALYZE is not started again by the next tick.
    running ??= look().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer =
    intervalMs === null
      ? undefined
      : setInterval(
          () =>
            void check().catch((error: unknown) =>
              logger.warn('table upkeep failed', { error: String(error) }),
            ),
          intervalMs,
        );
  timer?.unref();
  return {
    check,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
